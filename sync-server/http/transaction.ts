import { createHash } from 'node:crypto'
import type { Context, Next } from 'hono'
import { createMiddleware } from 'hono/factory'
import type postgres from 'postgres'
import { announceCommit } from '../db/commits.ts'
import type { Db } from '../db/connect.ts'
import type { AppEnv, ReplayBatch, SessionUser } from './env.ts'
import { problemResponse } from './errors.ts'
import { heldText } from './held-text.ts'
import { currentRouteOptions } from './route.ts'

const MUTATING = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])

/** Thrown to roll back a savepoint or transaction; never escapes this module. */
class Rollback extends Error {}

type StoredAnswer = {
  method: string
  path: string
  requestHash: string
  responseStatus: number | null
  responseBody: string | null
}

/**
 * Runs every mutating request in one transaction and implements the
 * `Idempotency-Key` contract of ARCHITECTURE.md:
 *
 * - The key row is inserted first, in the same transaction as the effect. A
 *   second request with the same key waits on that row's unique index until
 *   the first commits, then replays its stored answer: the two never both apply.
 * - A 4xx answer rolls back the effect (through a savepoint) but is stored, so
 *   a replay gives the same final answer. A 5xx rolls back everything, key
 *   included, so a retry runs again.
 * - The same key with another method, path or body is refused with 422.
 *
 * A route declared `ownTransaction` (sync push, which opens one for its batch)
 * gets the pool instead. A mutation a push replays runs in a savepoint of the
 * push's transaction (the same contract: a 4xx keeps only its stored answer, a
 * 5xx leaves nothing) and commits with the batch.
 */
export const transactional = createMiddleware<AppEnv>(async (c, next) => {
  const { sql } = c.get('deps')
  if (!MUTATING.has(c.req.method) || currentRouteOptions(c).ownTransaction) {
    c.set('db', sql)
    await next()
    return
  }
  const key = c.req.header('idempotency-key')
  const user = c.get('user')
  if (key !== undefined && (key.length < 1 || key.length > 255)) {
    return problemResponse(400, 'The Idempotency-Key header must have 1 to 255 characters.')
  }
  const batch = c.env?.batch
  if (batch && key && user) return inBatch(c, next, batch, key, user.id)
  let replay: Response | undefined
  try {
    await sql.begin(async (tx) => {
      c.set('db', tx)
      const claim = key && user ? await keyClaim(c, user.id, key) : undefined
      if (claim) {
        replay = await claimOrReplay(tx, claim)
        if (replay) return
      }
      try {
        await tx.savepoint(async () => {
          await next()
          if (c.error || c.res.status >= 400) throw new Rollback()
        })
      } catch (error) {
        if (!(error instanceof Rollback)) throw error
      }
      if (c.res.status >= 500) throw new Rollback()
      if (claim) await storeAnswer(tx, claim, c.res)
    })
  } catch (error) {
    if (!(error instanceof Rollback)) throw error
  }
  if (replay) return replay
  // Committed with its effect: event streams on the embedded database look now.
  if (c.res.status < 400) announceCommit(sql)
})

/** An Idempotency-Key as claimed for one request: who, which key, and what was asked. */
type KeyClaim = { userId: string; key: string; method: string; path: string; requestHash: string }

async function keyClaim(c: Context<AppEnv>, userId: string, key: string): Promise<KeyClaim> {
  const { method, path } = c.req
  const requestHash = createHash('sha256')
    .update(`${method} ${path}\n`)
    .update(await c.req.text())
    .digest('hex')
  return { userId, key, method, path, requestHash }
}

/**
 * Claims the key (its row locks out a second request with it until this
 * transaction ends); answers the stored answer when the key was claimed
 * before, or undefined when this request runs.
 */
async function claimOrReplay(tx: Db, claim: KeyClaim): Promise<Response | undefined> {
  return (await claimKey(tx, claim)) ? undefined : storedAnswer(tx, claim)
}

async function storeAnswer(tx: Db, claim: KeyClaim, res: Response): Promise<void> {
  await tx`
    UPDATE idempotency_keys
    SET response_status = ${res.status}, response_body = ${await res.clone().text()}
    WHERE user_id = ${claim.userId} AND key = ${claim.key}`
}

/**
 * Opens a sync push's batch in `tx`, the transaction of up to
 * MUTATIONS_PER_TRANSACTION replayed mutations (sync/push.ts), for `user`.
 * End it with `closeReplayBatch` before the transaction commits.
 *
 * The mutations run on a handle of `tx` whose failed statements are inBatch's
 * to handle: postgres.js remembers a failed statement of a transaction or
 * savepoint callback and throws it when the callback returns, so a refusal
 * the database raised (a 409 from a unique violation) in `tx` itself would
 * roll the whole transaction back. The handle is the `sql` of a savepoint
 * callback that has already returned: it runs on the same connection in the
 * same transaction, and nothing reads what it remembers. inBatch opens and
 * rolls back each mutation's savepoint itself (`SAVEPOINT` sent with the key
 * claim, `ROLLBACK TO` with the refusal's stored answer: one round trip each,
 * not two), so it knows when the transaction is in a failed state.
 */
export async function openReplayBatch(
  tx: postgres.TransactionSql,
  user: SessionUser,
): Promise<ReplayBatch> {
  let handle: postgres.TransactionSql | undefined
  await tx.savepoint(async (sp) => {
    handle = sp
  })
  if (!handle) throw new Error('The savepoint callback did not run.')
  return { tx: handle, user, pending: undefined, failure: undefined }
}

/**
 * Waits for what the batch still has in flight and throws when the batch's
 * transaction can no longer commit what it answered (then it must roll back).
 */
export async function closeReplayBatch(batch: ReplayBatch): Promise<void> {
  await settle(batch)
  if (batch.failure !== undefined) throw batch.failure
}

/**
 * The stored answer of the batch's previous mutation, sent without waiting
 * (it goes out with this mutation's savepoint and key claim). It can only fail
 * when the transaction does (the mutation's own statements succeeded), and the
 * mutation was already answered as applied: then the whole transaction must
 * roll back, which `failure` makes closeReplayBatch do.
 */
async function settle(batch: ReplayBatch): Promise<void> {
  const pending = batch.pending
  if (!pending) return
  batch.pending = undefined
  try {
    await pending
  } catch (error) {
    batch.failure ??= error
  }
}

/** Each replayed mutation's savepoint; ROLLBACK TO names the newest of that name, the mutation's own. */
const SAVEPOINT = 'replayed_mutation'

/**
 * A mutation a sync push replays, in one savepoint of the push's transaction
 * (one, not two: each savepoint that writes is a subtransaction, and Postgres
 * keeps only 64 per transaction in shared memory before every other session's
 * snapshots get slower). A 4xx rolls the savepoint back, key claim included,
 * and then stores the key with its answer; a 5xx leaves nothing. It commits
 * with the batch (sync/push.ts), which announces the commit.
 *
 * (The savepoints nest in the one of openReplayBatch, which takes a
 * subtransaction too: 51 at most with MUTATIONS_PER_TRANSACTION = 50.)
 *
 * Statements whose answer nothing waits for are sent together: the savepoint
 * with the key claim and the route's first statements (the route runs without
 * waiting for the claim; a key claimed before rolls the savepoint back and
 * answers the stored answer), the rollback with the refusal's stored answer,
 * and a success's stored answer with the next mutation's savepoint
 * (`pending`). The claim still runs first in the database, so the contract
 * above holds: a second request with the key waits on it, and never both apply.
 */
async function inBatch(
  c: Context<AppEnv>,
  next: Next,
  batch: ReplayBatch,
  key: string,
  userId: string,
): Promise<Response | undefined> {
  const claim = await keyClaim(c, userId, key)
  if (batch.failure !== undefined) throw batch.failure
  const tx = batch.tx
  c.set('db', tx)
  const previous = batch.pending
  batch.pending = undefined
  // Sent in this order, in one write: postgres.js sends a statement when it is executed, and
  // what is executed in one turn of the event loop goes out together. The route runs at once,
  // without waiting for the claim's answer: its first statements go out with the claim and run
  // after it (a second request with this key waits there, as before). When the key turns out
  // to be claimed before, the savepoint takes back whatever the route did.
  const opening = tx.unsafe(`SAVEPOINT ${SAVEPOINT}`).execute()
  const claiming = claimKey(tx, claim)
  const [stored, opened, claimed, ran] = await Promise.allSettled([
    previous,
    opening,
    claiming,
    next(),
  ])
  if (stored.status === 'rejected') batch.failure ??= stored.reason
  if (opened.status === 'rejected') batch.failure ??= opened.reason
  if (batch.failure !== undefined) throw batch.failure
  let answer: string
  try {
    if (claimed.status === 'rejected') throw claimed.reason
    if (!claimed.value) {
      await rollBack(batch)
      const replay = await storedAnswer(tx, claim)
      // The route's answer is dropped whole (headers, error): the stored one replaces it.
      c.error = undefined
      c.res = undefined
      c.res = replay
      return replay
    }
    if (ran.status === 'rejected') throw ran.reason
    answer = await answerText(c)
  } catch (error) {
    await rollBack(batch)
    throw error
  }
  if (!c.error && c.res.status < 400) {
    // Sent now, settled with the next mutation's savepoint or when the batch closes.
    batch.pending = tx`
      UPDATE idempotency_keys SET response_status = ${c.res.status}, response_body = ${answer}
      WHERE user_id = ${userId} AND key = ${key}`.execute()
    // Not left unhandled if the batch ends abnormally before it is settled.
    batch.pending.catch(() => {})
    return undefined
  }
  const { method, path, requestHash } = claim
  const status = c.res.status
  const rollingBack = tx.unsafe(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`).execute()
  const keeping =
    status >= 400 && status < 500
      ? // Final: a replay of this key answers the same refusal.
        tx`
        INSERT INTO idempotency_keys (user_id, key, method, path, request_hash, response_status, response_body)
        VALUES (${userId}, ${key}, ${method}, ${path}, ${requestHash}, ${status}, ${answer})
        ON CONFLICT DO NOTHING`.execute()
      : undefined
  const [rolledBack, kept] = await Promise.allSettled([rollingBack, keeping])
  if (rolledBack.status === 'rejected') {
    batch.failure ??= rolledBack.reason
    throw rolledBack.reason
  }
  if (kept.status === 'rejected') {
    await rollBack(batch)
    throw kept.reason
  }
  return undefined
}

/** Claims the key: true when this request runs, false when it was claimed before (waiting for that transaction first). */
async function claimKey(tx: Db, claim: KeyClaim): Promise<boolean> {
  const { userId, key, method, path, requestHash } = claim
  const claimed = await tx`
    INSERT INTO idempotency_keys (user_id, key, method, path, request_hash)
    VALUES (${userId}, ${key}, ${method}, ${path}, ${requestHash})
    ON CONFLICT DO NOTHING RETURNING 1`
  return claimed.length > 0
}

/** Undoes the mutation's savepoint after a failed statement; when even that fails, the batch cannot commit. */
async function rollBack(batch: ReplayBatch): Promise<void> {
  try {
    await batch.tx.unsafe(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`)
  } catch (error) {
    batch.failure ??= error
    throw error
  }
}

/**
 * Answers of replayed mutations, read once here (for their stored copy) and
 * taken by sync push (`replayedAnswerText`) instead of reading the response
 * again: no clone of its body (a stream tee), no second read. Keyed by the
 * response, so one that a middleware replaced on the way out is read as usual.
 */
const replayedAnswers = new WeakMap<Response, string>()

/** The answer's body as text; the response's own body is then used up (unless held: held-text.ts). */
async function answerText(c: Context<AppEnv>): Promise<string> {
  const res = c.res
  const text = heldText(res) ?? (await res.text())
  replayedAnswers.set(res, text)
  return text
}

/** The body of a replayed mutation's answer (`dispatch`'s response): read once, by inBatch. */
export async function replayedAnswerText(res: Response): Promise<string> {
  return replayedAnswers.get(res) ?? res.text()
}

async function storedAnswer(tx: Db, claim: KeyClaim): Promise<Response> {
  const { userId, key, method, path, requestHash } = claim
  const [stored] = await tx<StoredAnswer[]>`
    SELECT method, path, request_hash AS "requestHash", response_status AS "responseStatus",
           response_body AS "responseBody"
    FROM idempotency_keys WHERE user_id = ${userId} AND key = ${key}`
  if (
    !stored ||
    stored.method !== method ||
    stored.path !== path ||
    stored.requestHash !== requestHash
  ) {
    return problemResponse(
      422,
      'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
    )
  }
  const status = stored.responseStatus ?? 409
  const body = stored.responseBody ?? ''
  const isProblem = status >= 400
  return new Response(body === '' ? null : body, {
    status,
    headers: {
      'content-type': isProblem ? 'application/problem+json' : 'application/json',
      'idempotent-replayed': 'true',
    },
  })
}
