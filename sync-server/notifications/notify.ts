import type { NotificationKind } from '../../shared/notification.ts'
import type { Db } from '../db/connect.ts'

export type NewNotification = {
  kind: NotificationKind
  title: string
  message: string
  link: string | null
}

/**
 * Writes notifications for the given users in the caller's transaction, so a
 * notification exists exactly when its event does.
 */
export async function notify(
  db: Db,
  userIds: readonly string[],
  n: NewNotification,
): Promise<void> {
  const recipients = [...new Set(userIds)]
  if (recipients.length === 0) return
  await db`
    INSERT INTO notifications (user_id, kind, title, message, link)
    SELECT r, ${n.kind}, ${n.title}, ${n.message}, ${n.link}
    FROM unnest(${db.array(recipients)}::uuid[]) AS r`
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
