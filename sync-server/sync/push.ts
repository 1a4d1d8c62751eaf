import type { Problem } from '../../shared/problem.ts'
import { type PushMutation, type PushResult, pushMutationSchema } from '../../shared/sync.ts'
import { announceCommit } from '../db/commits.ts'
import type { Sql } from '../db/connect.ts'
import type { ReplayBatch, SessionUser } from '../http/env.ts'
import { problemBody, validationError } from '../http/errors.ts'
import { closeReplayBatch, openReplayBatch, replayedAnswerText } from '../http/transaction.ts'
import type { IsReplayable } from './replayable.ts'

/**
 * Hands a request to the app itself: the same middleware and routes as over
 * HTTP, run in a savepoint of the batch's transaction as its user. The body
 * comes as text beside the request (which has none to stream): the app reads
 * it from there.
 */
export type Dispatch = (
  request: Request,
  batch: ReplayBatch,
  body: string | undefined,
) => Promise<Response>

/**
 * Why a mutation cannot be replayed, as a problem result, or undefined when
 * `method path` is a REST mutation sync may replay. The path must be exactly what
 * it says: no query string, no fragment, nothing a URL parser would rewrite
 * (`..`, `%2e`), so the route matched here is the route that runs.
 */
function refuseMutation(
  replayable: IsReplayable,
  method: string,
  path: string,
): Problem | undefined {
  let url: URL
  try {
    url = new URL(path, 'http://sync.invalid')
  } catch {
    url = new URL('http://sync.invalid/')
  }
  if (!path.startsWith('/') || url.origin !== 'http://sync.invalid' || url.pathname !== path) {
    return problemBody(
      400,
      `The path ${JSON.stringify(path.slice(0, 200))} is not a plain API path; send it without a query string.`,
    )
  }
  const upper = method.toUpperCase()
  if (!replayable(upper, path)) {
    return problemBody(
      404,
      `${upper.slice(0, 10)} ${path.slice(0, 200)} is not an API mutation that sync can replay.`,
    )
  }
  return undefined
}

/**
 * Replays mutations (checked one by one: a malformed one gets a 400 result)
 * in order through `dispatch`, each as its own request with
 * `Idempotency-Key: <mutation id>`, so a mutation pushed again answers its
 * stored result. The batch runs in transactions of up to
 * `MUTATIONS_PER_TRANSACTION` mutations, each mutation a savepoint in it (its
 * 4xx rolls back only itself), with the session read once (`user`): a commit
 * per 50 mutations, not one per mutation. (50: each mutation is a
 * subtransaction, and past 64 in one transaction every other session's
 * snapshots get slower.) Stops after the first 5xx (the client pushes the rest
 * later); what came before it commits. When a transaction itself fails (the
 * database went away), this throws: the mutations of that transaction were
 * not applied, earlier ones were, and pushing again answers their stored results.
 */
export async function replayMutations(
  sql: Sql,
  dispatch: Dispatch,
  replayable: IsReplayable,
  origin: string,
  user: SessionUser,
  entries: readonly unknown[],
): Promise<PushResult[]> {
  const results: PushResult[] = []
  for (let i = 0; i < entries.length; i += MUTATIONS_PER_TRANSACTION) {
    const chunk = entries.slice(i, i + MUTATIONS_PER_TRANSACTION)
    const done = await sql.begin(async (tx) => {
      const batch = await openReplayBatch(tx, user)
      const replayed = await replayInOrder(batch, dispatch, replayable, origin, chunk)
      await closeReplayBatch(batch)
      return replayed
    })
    results.push(...done)
    // Committed: event streams on the embedded database look now.
    if (done.some((r) => r.status < 400 && !r.replayed)) announceCommit(sql)
    if (done.some((r) => r.status >= 500)) break
  }
  return results
}

/** At most this many replayed mutations (subtransactions) share a transaction. */
export const MUTATIONS_PER_TRANSACTION = 50

async function replayInOrder(
  batch: ReplayBatch,
  dispatch: Dispatch,
  replayable: IsReplayable,
  origin: string,
  entries: readonly unknown[],
): Promise<PushResult[]> {
  const results: PushResult[] = []
  for (const entry of entries) {
    const parsed = pushMutationSchema.safeParse(entry)
    if (!parsed.success) {
      const { status, detail, errors } = validationError(parsed.error)
      const id = (entry as { id?: unknown } | null)?.id
      const body = problemBody(status, `This mutation is not valid: ${detail}`, errors)
      results.push({ id: typeof id === 'string' ? id : '', status, body, replayed: false })
      continue
    }
    const mutation = parsed.data
    const refusal = refuseMutation(replayable, mutation.method, mutation.path)
    if (refusal) {
      results.push({ id: mutation.id, status: refusal.status, body: refusal, replayed: false })
      continue
    }
    const result = await replayOne(dispatch, batch, origin, mutation)
    results.push(result)
    if (result.status >= 500) break
  }
  return results
}

async function replayOne(
  dispatch: Dispatch,
  batch: ReplayBatch,
  origin: string,
  mutation: PushMutation,
): Promise<PushResult> {
  const body = mutation.body === undefined ? undefined : JSON.stringify(mutation.body)
  // A plain record: the Request makes its own Headers from it (a Headers made here was copied).
  const headers: Record<string, string> = {
    accept: 'application/json',
    'sec-fetch-site': 'same-origin',
    'idempotency-key': mutation.id,
  }
  if (body !== undefined) {
    headers['content-type'] = 'application/json'
    headers['content-length'] = String(Buffer.byteLength(body))
  }
  let res: Response
  try {
    res = await dispatch(
      new Request(origin + mutation.path, { method: mutation.method.toUpperCase(), headers }),
      batch,
      body,
    )
  } catch (error) {
    console.error(
      'Replaying a pushed mutation failed:',
      error instanceof Error ? error.message : error,
    )
    const problem = problemBody(500, 'Something went wrong on the server. Please try again.')
    return { id: mutation.id, status: 500, body: problem, replayed: false }
  }
  const text = await replayedAnswerText(res)
  let parsed: unknown = null
  if (text !== '') {
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = text
    }
  }
  return {
    id: mutation.id,
    status: res.status,
    body: parsed,
    replayed: res.headers.get('idempotent-replayed') === 'true',
  }
}
