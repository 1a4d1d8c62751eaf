import { type Answer, type HttpOptions, request } from '../../lib/http.ts'
import type { RejectedRow, SyncDb } from './db.ts'
import type { PageWriterFactory } from './page-writer.ts'
import { NeedsSignIn, RetryLater, type Run } from './run.ts'

/** What one flush works with. */
export type FlushContext = {
  db: SyncDb
  http: HttpOptions
  run: Run
  now: () => number
  clientId: string
  userId: string
  /** Whether this flush has made sure the session is `userId`'s. */
  identityChecked: boolean
  /** GET /api/user, asked for before the flush began (a first sync's prefetch): the check's answer. */
  identity?: Promise<Answer>
  /** A queued change was refused (toast it). */
  onRejected: (row: RejectedRow) => void
  /** Batch and page sizes, smaller after a request ran out of time (kept across flushes). */
  sizes: Sizes
  /** Writes a first sync's pages after the first off the main thread (page-writer.ts); null: none. */
  pageWriter: PageWriterFactory | null
  /** A pull page's transaction has committed (a new device's first page is stored: early-page.ts). */
  onPageWritten?: () => void
}

export type Sizes = { push: number; pull: number }

/** Halves a size after a timeout; answers false at the floor (then the timeout stands). */
export function shrink(sizes: Sizes, key: keyof Sizes, from: number, floor: number): boolean {
  if (from <= floor) return false
  sizes[key] = Math.max(floor, Math.floor(from / 2))
  return true
}

/** One request of the flush: given up with the run, progress when answered. */
export async function call(
  ctx: FlushContext,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<Answer> {
  ctx.run.check()
  const answer = await ctx.run.guard(request(ctx.http, method, path, body, ctx.run.signal))
  ctx.run.progress()
  return answer
}

/** Why to sign in again when the browser's session is another person's. */
export const OTHER_USER_DETAIL =
  'This browser is signed in as someone else. Sign in again to send your changes.'

/**
 * Makes sure the browser's session is still this database's user before a
 * sync starts from nothing (no cursor: a pull would fill this user's
 * database with whatever the session may see): the session cookie is shared
 * by every tab, and someone may have signed in as another person in one of
 * them. A push needs no such look: it names its user and the server refuses
 * another user's session (decision 0008).
 */
export async function checkIdentity(ctx: FlushContext): Promise<void> {
  if (ctx.identityChecked) return
  const asked = ctx.identity
  ctx.identity = undefined
  const answer = asked ? await asked : await call(ctx, 'GET', '/api/user')
  if (answer.status === 401) throw new NeedsSignIn('You are not signed in.')
  if (answer.status !== 200) throw new RetryLater(`GET /api/user answered ${answer.status}.`)
  const id = (answer.body as { id?: unknown } | null)?.id
  if (id !== ctx.userId) throw new NeedsSignIn(OTHER_USER_DETAIL)
  ctx.identityChecked = true
}
