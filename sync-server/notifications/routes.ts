import { Hono } from 'hono'
import { z } from 'zod'
import { notificationSchema } from '../../shared/notification.ts'
import { preferencesSchema } from '../../shared/preferences.ts'
import { callerOn, requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { body } from '../http/input.ts'
import { route } from '../http/route.ts'
import { found } from '../http/validate.ts'
import { readPreferences, selectNotifications } from './queries.ts'

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
    description: 'Which events also reach the caller by e-mail (and push). All on by default.',
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
    description: 'Takes the full preferences object.',
    response: { status: 200, schema: preferencesSchema, description: 'The saved preferences' },
  }),
  body(preferencesSchema),
  async (c) => {
    const user = requireUser(c)
    const { emailNotifications: p } = await c.var.body()
    const db = c.get('db')
    await db`
    INSERT INTO notification_preferences (user_id, new_applications, topic_status_updates,
      application_status_updates, new_topics_for_review)
    VALUES (${user.id}, ${p.newApplications}, ${p.topicStatusUpdates}, ${p.applicationStatusUpdates},
      ${p.newTopicsForReview})
    ON CONFLICT (user_id) DO UPDATE SET new_applications = EXCLUDED.new_applications,
      topic_status_updates = EXCLUDED.topic_status_updates,
      application_status_updates = EXCLUDED.application_status_updates,
      new_topics_for_review = EXCLUDED.new_topics_for_review, updated_at = now()`
    return c.json(await readPreferences(db, user.id))
  },
)
