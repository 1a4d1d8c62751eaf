import type { SecureHeadersVariables } from 'hono/secure-headers'
import type postgres from 'postgres'
import type { Config } from '../config.ts'
import type { Db, Sql } from '../db/connect.ts'

/** What the server is built from: the database pool and the parsed configuration. */
export type Deps = { sql: Sql; config: Config }

/** The signed-in user of a request, read fresh from the database on every request. */
export type SessionUser = {
  id: string
  username: string
  /** As the user row says now ('' when unknown); it changes only at a single sign-on sign-in. */
  fullName: string
  isAdmin: boolean
  sessionHash: string
}

/**
 * A sync push replaying its mutations (sync/push.ts): the push's one
 * transaction, which each replayed mutation runs in a savepoint of, and the
 * user whose session the push was checked with once. Opened and closed by
 * http/transaction.ts, which alone uses `pending` and `failure`.
 */
export type ReplayBatch = {
  tx: postgres.TransactionSql
  user: SessionUser
  /** The previous mutation's stored answer, sent and not yet settled. */
  pending: Promise<unknown> | undefined
  /** Set when the transaction can no longer commit what the batch answered. */
  failure: unknown
}

/** Hono's context variables for every route. */
export type AppEnv = {
  /**
   * Set only on a mutation a sync push replays in-process (app.fetch(request, { batch,
   * replayedBody })): its batch, and its body as text (the request itself has none).
   */
  Bindings: { batch?: ReplayBatch; replayedBody?: string | undefined }
  Variables: SecureHeadersVariables & {
    deps: Deps
    /** The pool for reads; for POST/PATCH/DELETE, the request's transaction. */
    db: Db
    user: SessionUser | null
  }
}
