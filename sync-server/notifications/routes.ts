import { Hono } from 'hono'
import { z } from 'zod'
import { notificationSchema } from '../../shared/notification.ts'
import {
  mergePreferences,
  preferencesSchema,
  updatePreferencesSchema,
} from '../../shared/preferences.ts'
import { callerOn, requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { body } from '../http/input.ts'
import { route } from '../http/route.ts'
import { found } from '../http/validate.ts'
import { readPreferences, selectNotifications, writePreferences } from './queries.ts'

const NOT_FOUND = 'Notification not found'

/** /api/notifications: the caller's notifications. */
export const notificationRoutes = new Hono<AppEnv>()

/** /api/user/notification-preferences: which notifications also go out by e-mail and push. */
export const preferenceRoutes = new Hono<AppEnv>()

notificationRoutes.get(
  '/',
  route({
    tag: 'Notifications',
    errors: [401],
    summary: 'Notifications',
    description: 'The caller’s 200 newest notifications, newest first.',
    response: { status: 200, schema: z.array(notificationSchema), description: 'Notifications' },
  }),
  async (c) => {
    const user = requireUser(c)
    return c.json(await selectNotifications(c.get('db'), user.id))
  },
)

notificationRoutes.patch(
  '/:id',
  route({
    tag: 'Notifications',
    errors: [401, 404],
    summary: 'Mark a notification read',
    description: 'Marks one of the caller’s notifications read. No body.',
    response: { status: 200, schema: notificationSchema, description: 'The notification' },
  }),
  async (c) => {
    const { user, id, db } = callerOn(c, NOT_FOUND)
    // Someone else's notification is as good as missing.
    const [updated] = await db`
    UPDATE notifications SET read = true WHERE id = ${id} AND user_id = ${user.id} RETURNING id`
    found(updated, NOT_FOUND)
    const [notification] = await selectNotifications(db, user.id, id)
    return c.json(found(notification, NOT_FOUND))
  },
)

preferenceRoutes.get(
  '/',
  route({
    tag: 'Notifications',
    errors: [401],
    summary: 'Notification preferences',
    description:
      'Which events also reach the caller by e-mail (and push), all on by default; per category whether e-mail comes as it happens or in the daily digest; the time zone, digest hour and quiet hours they are sent by.',
    response: { status: 200, schema: preferencesSchema, description: 'The preferences' },
  }),
  async (c) => {
    const user = requireUser(c)
    return c.json(await readPreferences(c.get('db'), user.id))
  },
)

preferenceRoutes.patch(
  '/',
  route({
    tag: 'Notifications',
    errors: [401],
    summary: 'Save notification preferences',
    description:
      'Takes the full preferences object (emailNotifications, as the spec says); the delivery settings beside it are optional, and what is left out stays as it is.',
    response: { status: 200, schema: preferencesSchema, description: 'The saved preferences' },
  }),
  body(updatePreferencesSchema),
  async (c) => {
    const user = requireUser(c)
    const update = await c.var.body()
    const db = c.get('db')
    // One change of a person's preferences at a time, so a partial update merges with the latest.
    await db`SELECT 1 FROM users WHERE id = ${user.id} FOR UPDATE`
    await writePreferences(
      db,
      user.id,
      mergePreferences(await readPreferences(db, user.id), update),
    )
    return c.json(await readPreferences(db, user.id))
  },
)
