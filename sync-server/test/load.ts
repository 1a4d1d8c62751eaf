import { topicBody } from './api.ts'
import type { Answer, Client } from './server.ts'

/** What a load run observed: every answer's status, and the writes the server acknowledged. */
export type LoadResult = {
  statuses: Map<number, number>
  /** Answers that broke the contract: not 2xx, not a 503 problem with Retry-After. */
  bad: string[]
  /** Subjects of the topics the server answered 201 for. */
  acknowledged: string[]
}

/** What each load client is doing now, by its index: for a load that does not end (loadEnded). */
export type LoadActivity = Map<number, { what: string; since: number; attempts: number }>

/**
 * Runs `clients` in parallel until `stop()` is true, each alternating a read
 * (GET /api/notifications) with a write (POST /api/topics under an
 * Idempotency-Key). A 503 is retried with the same key after a short wait, as
 * the PWA's outbox does; a connection error likewise (the request may or may
 * not have arrived, which the key makes safe). `activity` follows what each
 * client is waiting for.
 */
export async function runLoad(
  clients: Client[],
  stop: () => boolean,
  activity: LoadActivity = new Map(),
): Promise<LoadResult> {
  const result: LoadResult = { statuses: new Map(), bad: [], acknowledged: [] }
  const note = (what: string, res: Answer) => {
    result.statuses.set(res.status, (result.statuses.get(res.status) ?? 0) + 1)
    if (res.status === 503) {
      const problem = res.headers.get('content-type')?.includes('application/problem+json')
      if (!problem || !res.headers.get('retry-after') || typeof res.body?.detail !== 'string') {
        result.bad.push(`${what}: 503 without problem+json and Retry-After: ${res.text}`)
      }
    } else if (res.status === 0 || res.status >= 300) {
      result.bad.push(`${what}: ${res.status} ${res.text.slice(0, 200)}`)
    }
  }
  await Promise.all(
    clients.map(async (client, index) => {
      let n = 0
      while (!stop()) {
        n += 1
        activity.set(index, { what: 'GET /api/notifications', since: Date.now(), attempts: 1 })
        note('GET /api/notifications', await attempt(() => client.get('/api/notifications')))
        const body = topicBody({ subject: `Load ${index}.${n}` })
        const key = `load-${index}-${n}`
        const doing = { what: `POST /api/topics, key ${key}`, since: Date.now(), attempts: 0 }
        activity.set(index, doing)
        for (;;) {
          doing.attempts += 1
          const res = await attempt(() =>
            client.post('/api/topics', body, { headers: { 'idempotency-key': key } }),
          )
          note('POST /api/topics', res)
          if (res.status === 201) result.acknowledged.push(body.subject as string)
          if (res.status !== 503 && res.status !== 0) break
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      }
      activity.delete(index)
    }),
  )
  return result
}

/** An answer, or status 0 when the connection failed before one came. */
async function attempt(send: () => Promise<Answer>): Promise<Answer> {
  try {
    return await send()
  } catch (error) {
    return { status: 0, body: undefined, text: String(error), headers: new Headers() }
  }
}

/**
 * The load's result once every client has stopped, or, when that takes longer
 * than `withinMs` (a request that never ends, a write that answers 503
 * forever), an error naming what each client still waits for, with
 * `explain()` (the database's sessions, the server's output) beside it, instead of a
 * bare test timeout.
 */
export async function loadEnded(
  load: Promise<LoadResult>,
  activity: LoadActivity,
  withinMs: number,
  explain: () => Promise<string>,
): Promise<LoadResult> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), withinMs)
  })
  try {
    const ended = await Promise.race([load, late])
    if (ended !== 'late') return ended
  } finally {
    clearTimeout(timer)
  }
  const now = Date.now()
  const waiting = [...activity].map(
    ([index, a]) => `client ${index}: ${a.what}, attempt ${a.attempts}, for ${now - a.since} ms`,
  )
  throw new Error(
    `The load did not end within ${withinMs} ms of being stopped:\n${waiting.join('\n')}\n${await explain()}`,
  )
}
