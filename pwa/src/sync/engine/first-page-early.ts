import { PULL_LIMIT_DEFAULT } from '../../../../shared/sync.ts'
import { takeBootFirstPage } from '../../lib/boot-answers.ts'
import { type Answer, BROWSER_HTTP, request } from '../../lib/http.ts'
import { REQUEST_TIMEOUT_MS } from './options.ts'
import { pullPath } from './page.ts'

/**
 * A new device's first pull page, and the GET /api/user that says whose it
 * is, asked for as soon as the session check names someone this device has
 * no data of (no user stored here, or another one): before the screens are
 * drawn and the sync engine and its database are made. The engine's own
 * prefetch (Flusher.prefetchFirstPage) then takes these instead of asking
 * again. On a fresh profile at 100 topics it used to ask 290 ms after the
 * session's answer on a slow host, behind the first render and Dexie's
 * schema (issue 14: the first cards within 1 s).
 *
 * Both only read. Not taken within KEPT_MS (the database existed after all,
 * the person signed out), they are let go.
 */
type Early = {
  userId: string
  path: string
  answer: Promise<Answer>
  identity: Promise<Answer>
  abort: AbortController
}

const KEPT_MS = 30_000
/** As the engine's own requests: the same time limit. */
const HTTP = { ...BROWSER_HTTP, timeoutMs: REQUEST_TIMEOUT_MS }

let held: Early | null = null

/** Asks for `userId`'s first pull page now, in place of any asked for before. */
export function askFirstPageEarly(userId: string): void {
  held?.abort.abort()
  const path = pullPath(undefined, PULL_LIMIT_DEFAULT)
  // Sent already by boot.js, as its own session check answered?
  const booted = takeBootFirstPage(userId, path)
  const abort = booted?.abort ?? new AbortController()
  const answer = booted?.answer ?? request(HTTP, 'GET', path, undefined, abort.signal)
  const identity = booted?.identity ?? request(HTTP, 'GET', '/api/user', undefined, abort.signal)
  // Their failure is seen where they are awaited; never unhandled when they are let go.
  answer.catch(() => {})
  identity.catch(() => {})
  const early: Early = { userId, path, answer, identity, abort }
  held = early
  setTimeout(() => {
    if (held !== early) return
    held = null
    abort.abort()
  }, KEPT_MS)
}

/** Whether a first page asked for early is held for `userId` (not taken). */
export function holdsFirstPageEarly(userId: string): boolean {
  return held?.userId === userId
}

/**
 * The first page asked for early, for this user and this path, taken once;
 * null when there is none. One for someone else or another page size is let go.
 */
export function takeFirstPageEarly(
  userId: string,
  path: string,
): Pick<Early, 'answer' | 'identity' | 'abort'> | null {
  const early = held
  held = null
  if (!early) return null
  if (early.userId !== userId || early.path !== path) {
    early.abort.abort()
    return null
  }
  return early
}
