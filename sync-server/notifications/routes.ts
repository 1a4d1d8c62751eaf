import { Hono } from 'hono'
import type { Notification } from '../../shared/notification.ts'
import {
  DEFAULT_PREFERENCES,
  type Preferences,
  preferencesSchema,
} from '../../shared/preferences.ts'
import type { Db } from '../db/connect.ts'
import { requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { found, parseId, readBody } from '../http/validate.ts'

const NOT_FOUND = 'Notification not found'

/** /api/notifications and /api/user/notification-preferences. */
export const notificationRoutes = new Hono<AppEnv>()

/** Columns of a notification `n` as the API answers it. */
export function notificationColumns(db: Db) {
  return db`n.id, n.kind, n.title, n.message, n.link, n.created_at AS "createdAt", n.read`
}

function selectNotifications(db: Db, userId: string, id?: string) {
  return db<Notification[]>`
    SELECT ${notificationColumns(db)}
    FROM notifications n WHERE n.user_id = ${userId} ${id ? db`AND n.id = ${id}` : db``}
    ORDER BY n.created_at DESC, n.id
    LIMIT 200`
}

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

/** A user's preferences as the API answers them; the defaults when none are stored. */
export async function readPreferences(db: Db, userId: string): Promise<Preferences> {
  const [row] = await db<Preferences['emailNotifications'][]>`
    SELECT new_applications AS "newApplications", topic_status_updates AS "topicStatusUpdates",
      application_status_updates AS "applicationStatusUpdates",
      new_topics_for_review AS "newTopicsForReview"
    FROM notification_preferences WHERE user_id = ${userId}`
  return row ? { emailNotifications: { ...row } } : DEFAULT_PREFERENCES
}

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
