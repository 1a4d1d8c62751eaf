import type { Clock } from './clock.ts'

/**
 * The engine's few HTTP calls (pull, push, who am I), each with a time limit,
 * so a hung request ends as a failure instead of holding the queue.
 */

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>

/** A request that got no answer: offline, timed out, or given up on. */
export class NoAnswer extends Error {
  override readonly name = 'NoAnswer'
  constructor(
    readonly reason: 'network' | 'timeout' | 'aborted',
    message: string,
  ) {
    super(message)
  }
}

export type Answer = { status: number; body: unknown }

export type HttpOptions = {
  fetch: FetchLike
  /** '' in the browser (same origin); the server's address in tests. */
  baseUrl: string
  clock: Clock
  timeoutMs: number
}

/**
 * One JSON request. Answers any HTTP status; throws `NoAnswer` when there is
 * none (a network error, the time limit, or `signal`).
 */
export async function request(
  options: HttpOptions,
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  signal: AbortSignal,
): Promise<Answer> {
  const controller = new AbortController()
  let timedOut = false
  const timer = options.clock.setTimeout(() => {
    timedOut = true
    controller.abort()
  }, options.timeoutMs)
  const onAbort = () => controller.abort()
  if (signal.aborted) controller.abort()
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await options.fetch(options.baseUrl + path, {
      method,
      headers,
      credentials: 'same-origin',
      signal: controller.signal,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = text === '' ? null : JSON.parse(text)
    } catch {}
    return { status: res.status, body: parsed }
  } catch (error) {
    if (timedOut) throw new NoAnswer('timeout', `${method} ${path} got no answer in time.`)
    if (signal.aborted) throw new NoAnswer('aborted', `${method} ${path} was given up.`)
    const message = error instanceof Error ? error.message : String(error)
    throw new NoAnswer('network', `${method} ${path} failed: ${message}`)
  } finally {
    options.clock.clearTimeout(timer)
    signal.removeEventListener('abort', onAbort)
  }
}

/** The problem `detail` of an error answer, or a sentence naming the status. */
export function detailOf(answer: Answer): string {
  const detail = (answer.body as { detail?: unknown } | null)?.detail
  if (typeof detail === 'string' && detail !== '') return detail
  if (typeof answer.body === 'string' && answer.body.trim() !== '') return answer.body.trim()
  return `The server answered ${answer.status}.`
}
