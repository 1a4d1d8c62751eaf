import { browserNameStore, forgetDatabaseNames } from './db-name.ts'
import type { SyncEngine } from './engine.ts'

/** Where the browser goes to end the session (spec section 7). */
export const LOGOUT_PATH = '/api/auth/logout'

export type SignOutResult =
  /** Nothing was deleted: these changes would be lost. Ask, then call again with `discardUnsent`. */
  | { signedOut: false; unsent: number }
  /** The user's data is deleted from this device; navigate to LOGOUT_PATH. */
  | { signedOut: true; discarded: number }

/**
 * Signing out of this device: one last try to send what is queued, then, if
 * something is still unsent, an answer to warn with (nothing deleted) unless
 * `discardUnsent`; otherwise the engine stops and the user's database is
 * deleted (other tabs see it go and stop too).
 *
 * @example
 * const result = await signOut(engine)
 * if (!result.signedOut && !confirm(`${result.unsent} changes are not saved yet. Sign out anyway?`)) return
 * if (!result.signedOut) await signOut(engine, { discardUnsent: true })
 * location.assign(LOGOUT_PATH)
 */
export async function signOut(
  engine: SyncEngine,
  options: { discardUnsent?: boolean } = {},
): Promise<SignOutResult> {
  if ((await engine.unsentCount()) > 0) await engine.flush()
  const unsent = await engine.unsentCount()
  if (unsent > 0 && !options.discardUnsent) return { signedOut: false, unsent }
  await engine.stop()
  await engine.db.delete()
  forgetDatabaseNames(engine.userId, browserNameStore())
  return { signedOut: true, discarded: unsent }
}
