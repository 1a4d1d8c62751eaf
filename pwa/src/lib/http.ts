/**
 * The app's one HTTP client: JSON in and out, same-origin credentials, a
 * time limit and an abort signal on every call, and problem+json errors read
 * into the sentence to show. The sync engine, the screens (who am I, push
 * devices) and the service worker all call the API through it.
 *
 * @example
 * const user = await callApi('GET', '/api/user')
 */

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>

/** The timers a call uses; the sync engine passes its (testable) clock. */
type Timers = {
  setTimeout: (fn: () => void, ms: number) => unknown
  clearTimeout: (handle: unknown) => void
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

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

export type Answer = { status: number; body: unknown; statusText?: string }

export type HttpOptions = {
  fetch: FetchLike
  /** '' in the browser (same origin); the server's address in tests. */
  baseUrl: string
  clock: Timers
  timeoutMs: number
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
}

/** A page's or the service worker's calls: the same origin, 15 s at most. */
export const BROWSER_HTTP: HttpOptions = {
  fetch: (url, init) => globalThis.fetch(url, init),
  baseUrl: '',
  clock: realTimers,
  timeoutMs: 15_000,
}

/**
 * One JSON request. Answers any HTTP status; throws `NoAnswer` when there is
 * none (a network error, the time limit, or `signal`).
 */
export async function request(
  options: HttpOptions,
  method: Method,
  path: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<Answer> {
  const controller = new AbortController()
  let timedOut = false
  const timer = options.clock.setTimeout(() => {
    timedOut = true
    controller.abort()
  }, options.timeoutMs)
  const onAbort = () => controller.abort()
  if (signal?.aborted) controller.abort()
  signal?.addEventListener('abort', onAbort, { once: true })
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
    return answerOf(res.status, res.statusText, await res.text())
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    throw noAnswer(
      timedOut ? 'timeout' : signal?.aborted ? 'aborted' : 'network',
      method,
      path,
      message,
    )
  } finally {
    options.clock.clearTimeout(timer)
    signal?.removeEventListener('abort', onAbort)
  }
}

/** `method path` got no answer, and why, in the sentence to show; `cause` says what a network failure was. */
export function noAnswer(
  reason: NoAnswer['reason'],
  method: Method,
  path: string,
  cause = 'no answer.',
): NoAnswer {
  if (reason === 'timeout')
    return new NoAnswer('timeout', `${method} ${path} got no answer in time.`)
  if (reason === 'aborted') return new NoAnswer('aborted', `${method} ${path} was given up.`)
  return new NoAnswer('network', `${method} ${path} failed: ${cause}`)
}

/** An answer from its status and the text of its body: JSON read when it is JSON. */
export function answerOf(status: number, statusText: string, text: string): Answer {
  let body: unknown = text
  try {
    body = text === '' ? null : JSON.parse(text)
  } catch {}
  return { status, statusText, body }
}

/** The problem `detail` of an error answer, or a sentence naming the status. */
export function detailOf(answer: Answer): string {
  const detail = (answer.body as { detail?: unknown } | null)?.detail
  if (typeof detail === 'string' && detail !== '') return detail
  if (typeof answer.body === 'string' && answer.body.trim() !== '') return answer.body.trim()
  return `The server answered ${answer.status}.`
}

/** A refused call: `message` is the sentence to show (the server's problem detail). */
class ApiCallError extends Error {
  override readonly name = 'ApiCallError'
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/**
 * A call that must succeed: answers the body of a 2xx, else throws an Error
 * whose message is the sentence to show (`ApiCallError` with the server's
 * detail, or why there was no answer).
 */
export async function callApi(
  method: Method,
  path: string,
  body?: unknown,
  options: HttpOptions = BROWSER_HTTP,
): Promise<unknown> {
  let answer: Answer
  try {
    answer = await request(options, method, path, body)
  } catch (error) {
    if (error instanceof NoAnswer && error.reason === 'timeout') {
      throw new Error('The server did not answer in time. Check your connection and try again.')
    }
    throw new Error('The server cannot be reached. Check your connection and try again.')
  }
  if (answer.status >= 400) throw new ApiCallError(answer.status, detailOf(answer))
  return answer.body
}
