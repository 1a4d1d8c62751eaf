import { Hono } from 'hono'
import {
  checkEditProfile,
  checkToggleAdmin,
  type User,
  updateProfileSchema,
} from '../../shared/user.ts'
import { actorOf, requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { enforce, found, parseId, readBody } from '../http/validate.ts'
import { findUserById, findUserByUsername, rememberInterests, userColumns } from './queries.ts'

const NOT_FOUND = 'User not found'

/** /api/user (the current user), /api/users and profiles. */
export const userRoutes = new Hono<AppEnv>()

userRoutes.get('/user', async (c) => {
  const user = requireUser(c)
  return c.json(found(await findUserById(c.get('db'), user.id), NOT_FOUND))
})

userRoutes.get('/users', async (c) => {
  requireUser(c)
  const db = c.get('db')
  return c.json(await db<User[]>`SELECT ${userColumns(db)} FROM users u ORDER BY lower(u.username)`)
})

userRoutes.get('/users/:username', async (c) => {
  requireUser(c)
  return c.json(found(await findUserByUsername(c.get('db'), c.req.param('username')), NOT_FOUND))
})

userRoutes.patch('/users/:username', async (c) => {
  const user = requireUser(c)
  const db = c.get('db')
  const profile = found(await findUserByUsername(db, c.req.param('username')), NOT_FOUND)
  enforce(checkEditProfile(actorOf(user), profile.id))
  const input = await readBody(c, updateProfileSchema)
  await db`
    UPDATE users SET
      seniority = ${input.seniority === undefined ? db`seniority` : input.seniority},
      bio = ${input.bio === undefined ? db`bio` : input.bio},
      interests = ${input.interests === undefined ? db`interests` : db`${db.array(input.interests)}::text[]`},
      updated_at = now()
    WHERE id = ${profile.id}`
  if (input.interests) await rememberInterests(db, input.interests)
  return c.json(found(await findUserById(db, profile.id), NOT_FOUND))
})

/** /api/admin/users/{id}/toggle-admin. */
export const adminUserRoutes = new Hono<AppEnv>()

adminUserRoutes.post('/users/:id/toggle-admin', async (c) => {
  const user = requireUser(c)
  const id = parseId(c.req.param('id'), NOT_FOUND)
  const db = c.get('db')
  enforce(checkToggleAdmin(actorOf(user), id))
  const [updated] = await db`
    UPDATE users SET is_admin = NOT is_admin, updated_at = now() WHERE id = ${id} RETURNING id`
  found(updated, NOT_FOUND)
  return c.json(found(await findUserById(db, id), NOT_FOUND))
})
