import type { SecureHeadersVariables } from 'hono/secure-headers'
import type { Config } from '../config.ts'
import type { Db, Sql } from '../db/connect.ts'

/** What the server is built from: the database pool and the parsed configuration. */
export type Deps = { sql: Sql; config: Config }

/** The signed-in user of a request, read fresh from the database on every request. */
export type SessionUser = {
  id: string
  username: string
  isAdmin: boolean
  sessionHash: string
}

/** Hono's context variables for every route. */
export type AppEnv = {
  Variables: SecureHeadersVariables & {
    deps: Deps
    /** The pool for reads; for POST/PATCH/DELETE, the request's transaction. */
    db: Db
    user: SessionUser | null
  }
}
