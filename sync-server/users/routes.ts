import { Hono } from 'hono'
import { z } from 'zod'
import {
  checkEditProfile,
  checkToggleAdmin,
  type User,
  updateProfileSchema,
  userSchema,
} from '../../shared/user.ts'
import { actorOf, callerOn, requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { body } from '../http/input.ts'
import { route } from '../http/route.ts'
import { enforce, found } from '../http/validate.ts'
import { findUserById, findUserByUsername, rememberInterests, userColumns } from './queries.ts'

const NOT_FOUND = 'User not found'

/** /api/users: every user and their profiles. */
export const userRoutes = new Hono<AppEnv>()

/** /api/user: the signed-in user. */
export const currentUserRoutes = new Hono<AppEnv>()

currentUserRoutes.get(
  '/',
  route({
    tag: 'Users',
    errors: [401],
    summary: 'The signed-in user',
    description: 'Answers the current user. 401 means nobody is signed in.',
    response: { status: 200, schema: userSchema, description: 'The current user' },
  }),
  async (c) => {
    const user = requireUser(c)
    return c.json(found(await findUserById(c.get('db'), user.id), NOT_FOUND))
  },
)

userRoutes.get(
  '/',
  route({
    tag: 'Users',
    errors: [401],
    summary: 'List users',
    description: 'Every user, by username.',
    response: { status: 200, schema: z.array(userSchema), description: 'Users' },
  }),
  async (c) => {
    requireUser(c)
    const db = c.get('db')
    return c.json(
      await db<User[]>`SELECT ${userColumns(db)} FROM users u ORDER BY lower(u.username)`,
    )
  },
)

userRoutes.get(
  '/:username',
  route({
    tag: 'Users',
    errors: [401, 404],
    summary: 'Read a profile',
    description: 'A user by username (case-insensitive).',
    response: { status: 200, schema: userSchema, description: 'The user' },
  }),
  async (c) => {
    requireUser(c)
    return c.json(found(await findUserByUsername(c.get('db'), c.req.param('username')), NOT_FOUND))
  },
)

userRoutes.patch(
  '/:username',
  route({
    tag: 'Users',
    errors: [401, 403, 404],
    summary: 'Edit a profile',
    description:
      'The owner or an administrator edits seniority, bio, interests, whether they are looking for a mentor and how they would like to meet (preferredLocation). Omitted fields stay; seniority or preferredLocation null clears it. answersWithinDays and hasMentor are derived from applications and cannot be set.',
    response: { status: 200, schema: userSchema, description: 'The updated user' },
  }),
  body(updateProfileSchema),
  async (c) => {
    const user = requireUser(c)
    const db = c.get('db')
    const profile = found(await findUserByUsername(db, c.req.param('username')), NOT_FOUND)
    enforce(checkEditProfile(actorOf(user), profile.id))
    const input = await c.var.body()
    await db`
    UPDATE users SET
      seniority = ${input.seniority === undefined ? db`seniority` : input.seniority},
      bio = ${input.bio === undefined ? db`bio` : input.bio},
      interests = ${input.interests === undefined ? db`interests` : db`${db.array(input.interests)}::text[]`},
      looking_for_mentor = ${input.lookingForMentor === undefined ? db`looking_for_mentor` : input.lookingForMentor},
      preferred_location = ${input.preferredLocation === undefined ? db`preferred_location` : db`${input.preferredLocation}::topic_location`},
      updated_at = now()
    WHERE id = ${profile.id}`
    if (input.interests) await rememberInterests(db, input.interests)
    return c.json(found(await findUserById(db, profile.id), NOT_FOUND))
  },
)

/** /api/admin/users/{id}/toggle-admin. */
export const adminUserRoutes = new Hono<AppEnv>()

adminUserRoutes.post(
  '/:id/toggle-admin',
  route({
    tag: 'Administration',
    errors: [401, 403, 404],
    summary: "Toggle a user's administrator flag",
    description:
      'An administrator grants or revokes another user’s administrator rights; it takes effect on that user’s next request. Administrators cannot change their own flag. No body.',
    response: { status: 200, schema: userSchema, description: 'The updated user' },
  }),
  async (c) => {
    const { user, id, db } = callerOn(c, NOT_FOUND)
    enforce(checkToggleAdmin(actorOf(user), id))
    const [updated] = await db`
    UPDATE users SET is_admin = NOT is_admin, updated_at = now() WHERE id = ${id} RETURNING id`
    found(updated, NOT_FOUND)
    return c.json(found(await findUserById(db, id), NOT_FOUND))
  },
)
