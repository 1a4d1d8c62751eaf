import type { NotificationKind } from '../../shared/notification.ts'
import { wantsDelivery } from '../../shared/preferences.ts'
import type { Db } from '../db/connect.ts'
import { type Delivery, enqueueDeliveries } from '../delivery/queue.ts'
import { wakeDeliveryWorkers } from '../delivery/wake.ts'

export type NewNotification = {
  kind: NotificationKind
  title: string
  message: string
  link: string | null
  /** The topic it is about, if any. */
  topicId: string | null
}

type Recipient = {
  notificationId: string
  userId: string
  hasEmail: boolean
  subscriptionIds: string[]
  newApplications: boolean
  topicStatusUpdates: boolean
  applicationStatusUpdates: boolean
  newTopicsForReview: boolean
}

/**
 * Writes notifications for the given users in the caller's transaction, so a
 * notification exists exactly when its event does, and in the same
 * transaction queues its push (one job per device) and e-mail for each
 * recipient whose preference for this kind is on (decision 0009).
 */
export async function notify(
  db: Db,
  userIds: readonly string[],
  n: NewNotification,
): Promise<void> {
  const recipients = [...new Set(userIds)]
  if (recipients.length === 0) return
  const rows = await db<Recipient[]>`
    WITH written AS (
      INSERT INTO notifications (user_id, kind, title, message, link, topic_id)
      SELECT r, ${n.kind}, ${n.title}, ${n.message}, ${n.link}, ${n.topicId}
      FROM unnest(${db.array(recipients)}::uuid[]) AS r
      RETURNING id, user_id
    )
    SELECT w.id AS "notificationId", w.user_id AS "userId",
      coalesce(btrim(u.email), '') <> '' AS "hasEmail",
      array(SELECT s.id FROM push_subscriptions s WHERE s.user_id = w.user_id
        AND (s.expiration_time IS NULL OR s.expiration_time > now())
        ORDER BY s.created_at)::text[] AS "subscriptionIds",
      coalesce(p.new_applications, true) AS "newApplications",
      coalesce(p.topic_status_updates, true) AS "topicStatusUpdates",
      coalesce(p.application_status_updates, true) AS "applicationStatusUpdates",
      coalesce(p.new_topics_for_review, true) AS "newTopicsForReview"
    FROM written w JOIN users u ON u.id = w.user_id
    LEFT JOIN notification_preferences p ON p.user_id = w.user_id`
  const deliveries: Delivery[] = rows
    .filter((r) => wantsDelivery({ emailNotifications: r }, n.kind))
    .map((r) => ({
      userId: r.userId,
      payload: { notificationId: r.notificationId, ...n },
      subscriptionIds: r.subscriptionIds,
      email: r.hasEmail,
    }))
  if ((await enqueueDeliveries(db, deliveries)) > 0) wakeDeliveryWorkers()
}

export async function adminIds(db: Db, except?: string): Promise<string[]> {
  const rows = await db<{ id: string }[]>`
    SELECT id FROM users WHERE is_admin ${except ? db`AND id <> ${except}` : db``}`
  return rows.map((r) => r.id)
}

export async function acceptedMenteeIds(db: Db, topicId: string): Promise<string[]> {
  const rows = await db<{ menteeId: string }[]>`
    SELECT mentee_id AS "menteeId" FROM applications WHERE topic_id = ${topicId} AND status = 'accepted'`
  return rows.map((r) => r.menteeId)
}
