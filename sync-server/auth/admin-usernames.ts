import type { User } from '../../shared/user.ts'
import type { Db } from '../db/connect.ts'

/**
 * ADMIN_USERNAMES make those users administrators when they sign in: how a
 * new deployment gets its first administrator. Names are compared in lower case.
 */
export async function applyAdminUsernames(
  db: Db,
  user: User,
  adminUsernames: readonly string[],
): Promise<User> {
  if (user.isAdmin || !adminUsernames.includes(user.username.toLowerCase())) return user
  await db`UPDATE users SET is_admin = true, updated_at = now() WHERE id = ${user.id}`
  return { ...user, isAdmin: true }
}
