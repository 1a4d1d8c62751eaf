import { createHash } from 'node:crypto'
import type { Context, Next } from 'hono'
import { createMiddleware } from 'hono/factory'
import type postgres from 'postgres'
import { announceCommit } from '../db/commits.ts'
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
      if (key && user) {
        const requestHash = await hashRequest(c)
        const claimed = await tx`
          INSERT INTO idempotency_keys (user_id, key, method, path, request_hash)
          VALUES (${user.id}, ${key}, ${c.req.method}, ${c.req.path}, ${requestHash})
          ON CONFLICT DO NOTHING RETURNING 1`
        if (claimed.length === 0) {
          replay = await storedAnswer(tx, user.id, key, c.req.method, c.req.path, requestHash)
          return
        }
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
      if (key && user) {
        const body = await c.res.clone().text()
        await tx`
          UPDATE idempotency_keys SET response_status = ${c.res.status}, response_body = ${body}
          WHERE user_id = ${user.id} AND key = ${key}`
      }
    })
  } catch (error) {
    if (!(error instanceof Rollback)) throw error
  }
  if (replay) return replay
  // Committed with its effect: event streams on the embedded database look now.
  if (c.res.status < 400) announceCommit(sql)
})

async function hashRequest(c: Context<AppEnv>): Promise<string> {
  return createHash('sha256')
    .update(`${c.req.method} ${c.req.path}\n`)
    .update(await c.req.text())
    .digest('hex')
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
  const requestHash = await hashRequest(c)
  const { method, path } = c.req
  let replay: Response | undefined
  try {
    await batch.savepoint(async (tx) => {
      c.set('db', tx)
      const claimed = await tx`
        INSERT INTO idempotency_keys (user_id, key, method, path, request_hash)
        VALUES (${userId}, ${key}, ${method}, ${path}, ${requestHash})
        ON CONFLICT DO NOTHING RETURNING 1`
      if (claimed.length === 0) {
        replay = await storedAnswer(tx, userId, key, method, path, requestHash)
        return
      }
      await next()
      if (c.error || c.res.status >= 400) throw new Rollback()
      await tx`
        UPDATE idempotency_keys
        SET response_status = ${c.res.status}, response_body = ${await c.res.clone().text()}
        WHERE user_id = ${userId} AND key = ${key}`
    })
  } catch (error) {
    if (!(error instanceof Rollback)) throw error
  }
  if (replay) return replay
  if (c.res.status >= 400 && c.res.status < 500) {
    // Final: a replay of this key answers the same refusal.
    await batch`
      INSERT INTO idempotency_keys (user_id, key, method, path, request_hash, response_status, response_body)
      VALUES (${userId}, ${key}, ${method}, ${path}, ${requestHash}, ${c.res.status}, ${await c.res.clone().text()})
      ON CONFLICT DO NOTHING`
  }
  return undefined
}

async function storedAnswer(
  tx: AppEnv['Variables']['db'],
  userId: string,
  key: string,
  method: string,
  path: string,
  requestHash: string,
): Promise<Response> {
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
