import type { Notification } from '../../shared/notification.ts'
import { DEFAULT_PREFERENCES, type Preferences } from '../../shared/preferences.ts'
import type { Db } from '../db/connect.ts'

// The reads of notifications and preferences: answered by the REST routes and by sync pull.

/** Columns of a notification `n` as the API answers it. */
export function notificationColumns(db: Db) {
  return db`n.id, n.kind, n.title, n.message, n.link, n.created_at AS "createdAt", n.read,
    n.topic_id AS "topicId", n.snoozed_until AS "snoozedUntil", n.response`
}

export function selectNotifications(db: Db, userId: string, id?: string) {
  return db<Notification[]>`
    SELECT ${notificationColumns(db)}
    FROM notifications n WHERE n.user_id = ${userId} ${id ? db`AND n.id = ${id}` : db``}
    ORDER BY n.created_at DESC, n.id
    LIMIT 200`
}

/** A user's preferences as the API answers them; the defaults when none are stored. */
export async function readPreferences(db: Db, userId: string): Promise<Preferences> {
  const [row] = await db<Preferences['emailNotifications'][]>`
    SELECT new_applications AS "newApplications", topic_status_updates AS "topicStatusUpdates",
      application_status_updates AS "applicationStatusUpdates",
      new_topics_for_review AS "newTopicsForReview"
    FROM notification_preferences WHERE user_id = ${userId}`
  return row ? { emailNotifications: { ...row } } : DEFAULT_PREFERENCES
}
