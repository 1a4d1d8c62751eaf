import { Hono } from 'hono'
import { preferencesSchema } from '../../shared/preferences.ts'
import { requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { found, parseId, readBody } from '../http/validate.ts'
import { readPreferences, selectNotifications } from './queries.ts'

const NOT_FOUND = 'Notification not found'

/** /api/notifications and /api/user/notification-preferences. */
export const notificationRoutes = new Hono<AppEnv>()

notificationRoutes.get('/notifications', async (c) => {
  const user = requireUser(c)
  return c.json(await selectNotifications(c.get('db'), user.id))
})

notificationRoutes.patch('/notifications/:id', async (c) => {
  const user = requireUser(c)
  const id = parseId(c.req.param('id'), NOT_FOUND)
  const db = c.get('db')
  // Someone else's notification is as good as missing.
  const [updated] = await db`
    UPDATE notifications SET read = true WHERE id = ${id} AND user_id = ${user.id} RETURNING id`
  found(updated, NOT_FOUND)
  const [notification] = await selectNotifications(db, user.id, id)
  return c.json(found(notification, NOT_FOUND))
})

notificationRoutes.get('/user/notification-preferences', async (c) => {
  const user = requireUser(c)
  return c.json(await readPreferences(c.get('db'), user.id))
})

notificationRoutes.patch('/user/notification-preferences', async (c) => {
  const user = requireUser(c)
  const { emailNotifications: p } = await readBody(c, preferencesSchema)
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
})
