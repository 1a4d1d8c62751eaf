import { Hono } from 'hono'
import { z } from 'zod'
import { devLoginSchema, type User, usernameSchema } from '../../shared/user.ts'
import type { Db } from '../db/connect.ts'
import type { AppEnv } from '../http/env.ts'
import { ApiError, validationError } from '../http/errors.ts'
import { found, readBody } from '../http/validate.ts'
import { findUserById, findUserByUsername } from '../users/queries.ts'
import { endSession, startSession } from './sessions.ts'

/** /api/auth: the development sign-in helper and logout. */
export const authRoutes = new Hono<AppEnv>()

/**
 * POST /api/auth/dev-login `{ userId }`: signs in as a user named by id or
 * username. In development an unknown username creates a non-admin user.
 * Not registered at all when NODE_ENV=production.
 */
authRoutes.post('/dev-login', async (c) => {
  const { config } = c.get('deps')
  if (config.NODE_ENV === 'production') throw new ApiError(404, 'Not found')
  const { userId } = await readBody(c, devLoginSchema)
  const db = c.get('db')
  const isId = z.uuid().safeParse(userId).success
  let user = isId ? await findUserById(db, userId) : await findUserByUsername(db, userId)
  if (!user) {
    if (isId) throw new ApiError(404, 'User not found')
    const input = z.object({ userId: usernameSchema }).safeParse({ userId })
    if (!input.success) throw validationError(input.error)
    user = await createUser(db, input.data.userId)
  }
  user = await applyAdminUsernames(db, user, config.ADMIN_USERNAMES)
  await startSession(c, db, user.id)
  return c.json(user)
})

authRoutes.get('/logout', async (c) => {
  await endSession(c, c.get('deps').sql)
  return c.redirect('/', 302)
})

async function createUser(db: Db, username: string): Promise<User> {
  const [row] = await db<{ id: string }[]>`
    INSERT INTO users (username, full_name) VALUES (${username}, ${username}) RETURNING id`
  const id = found(row, 'User not found').id
  await db`INSERT INTO notification_preferences (user_id) VALUES (${id})`
  return found(await findUserById(db, id), 'User not found')
}

/** ADMIN_USERNAMES make those users administrators when they sign in. */
export async function applyAdminUsernames(
  db: Db,
  user: User,
  adminUsernames: string[],
): Promise<User> {
  if (user.isAdmin || !adminUsernames.includes(user.username.toLowerCase())) return user
  await db`UPDATE users SET is_admin = true, updated_at = now() WHERE id = ${user.id}`
  return { ...user, isAdmin: true }
}
