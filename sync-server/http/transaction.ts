import { createHash } from 'node:crypto'
import type { Context, Next } from 'hono'
import { createMiddleware } from 'hono/factory'
import type postgres from 'postgres'
import { announceCommit } from '../db/commits.ts'
import type { Db } from '../db/connect.ts'
import type { AppEnv } from './env.ts'
import { problemResponse } from './errors.ts'
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
  if (batch && key && user) return inBatch(c, next, batch.tx, key, user.id)
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
  const { userId, key, method, path, requestHash } = claim
  const claimed = await tx`
    INSERT INTO idempotency_keys (user_id, key, method, path, request_hash)
    VALUES (${userId}, ${key}, ${method}, ${path}, ${requestHash})
    ON CONFLICT DO NOTHING RETURNING 1`
  return claimed.length === 0 ? storedAnswer(tx, claim) : undefined
}

async function storeAnswer(tx: Db, claim: KeyClaim, res: Response): Promise<void> {
  await tx`
    UPDATE idempotency_keys
    SET response_status = ${res.status}, response_body = ${await res.clone().text()}
    WHERE user_id = ${claim.userId} AND key = ${claim.key}`
}

/**
 * A mutation a sync push replays, in one savepoint of the push's transaction
 * (one, not two: each savepoint that writes is a subtransaction, and Postgres
 * keeps only 64 per transaction in shared memory before every other session's
 * snapshots get slower). A 4xx rolls the savepoint back, key claim included,
 * and then stores the key with its answer; a 5xx leaves nothing. It commits
 * with the batch (sync/push.ts), which announces the commit.
 */
async function inBatch(
  c: Context<AppEnv>,
  next: Next,
  batch: postgres.TransactionSql,
  key: string,
  userId: string,
): Promise<Response | undefined> {
  const claim = await keyClaim(c, userId, key)
  let replay: Response | undefined
  try {
    await batch.savepoint(async (tx) => {
      c.set('db', tx)
      replay = await claimOrReplay(tx, claim)
      if (replay) return
      await next()
      if (c.error || c.res.status >= 400) throw new Rollback()
      await storeAnswer(tx, claim, c.res)
    })
  } catch (error) {
    if (!(error instanceof Rollback)) throw error
  }
  if (replay) return replay
  if (c.res.status >= 400 && c.res.status < 500) {
    // Final: a replay of this key answers the same refusal.
    const { method, path, requestHash } = claim
    await batch`
      INSERT INTO idempotency_keys (user_id, key, method, path, request_hash, response_status, response_body)
      VALUES (${userId}, ${key}, ${method}, ${path}, ${requestHash}, ${c.res.status}, ${await c.res.clone().text()})
      ON CONFLICT DO NOTHING`
  }
  return undefined
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
