import type { NotificationKind } from '../../shared/notification.ts'
import { emailModeFor, wantsDelivery } from '../../shared/preferences.ts'
import type { Db } from '../db/connect.ts'
import { type Delivery, enqueueDeliveries } from '../delivery/queue.ts'
import { wakeDeliveryWorkers } from '../delivery/wake.ts'
import {
  digestStateSql,
  type PreferenceRow,
  preferenceColumns,
  preferencesFromRow,
} from './queries.ts'

export type NewNotification = {
  kind: NotificationKind
  title: string
  message: string
  link: string | null
  /** The topic it is about, if any. */
  topicId: string | null
}

/** Whom a notification is for: these users, or every administrator but the one who acted. */
export type Recipients = readonly string[] | { adminsBut: string }

type Recipient = {
  notificationId: string
  userId: string
  /** Written as waiting for the digest (digestStateSql). */
  digested: boolean
  hasEmail: boolean
  subscriptionIds: string[]
} & PreferenceRow

/**
 * Writes notifications for the given users in the caller's transaction, so a
 * notification exists exactly when its event does, and in the same
 * transaction queues what goes out for each recipient whose preference for
 * this kind is on (decisions 0009 and 0038): a push job per device, and an
 * e-mail job, or, when the person takes this category as a daily digest, a
 * mark that the digest should carry it. When they go (quiet hours, the
 * e-mail delay, the daily budget) the worker decides at send time. Answers
 * the notification written for each recipient.
 */
export async function notify(
  db: Db,
  to: Recipients,
  n: NewNotification,
): Promise<{ userId: string; notificationId: string }[]> {
  let recipients: ReturnType<typeof db>
  if ('adminsBut' in to) {
    // Read in the same statement: one round trip, not a SELECT of the administrators first.
    recipients = db`(SELECT id FROM users WHERE is_admin AND id <> ${to.adminsBut}) AS a (r)`
  } else {
    const ids = [...new Set(to)]
    if (ids.length === 0) return []
    recipients = db`unnest(${db.array(ids)}::uuid[]) AS r`
  }
  // The digest mark is written with the row (digestStateSql); the recipient's user and
  // preferences are joined again below for what the deliveries need.
  const rows = await db<Recipient[]>`
    WITH written AS (
      INSERT INTO notifications (user_id, kind, title, message, link, topic_id, digest_state)
      SELECT r, ${n.kind}, ${n.title}, ${n.message}, ${n.link}, ${n.topicId}, ${digestStateSql(db, n.kind)}
      FROM ${recipients}
      LEFT JOIN users u ON u.id = r
      LEFT JOIN notification_preferences p ON p.user_id = r
      RETURNING id, user_id, digest_state
    )
    SELECT w.id AS "notificationId", w.user_id AS "userId",
      w.digest_state IS NOT DISTINCT FROM 'waiting' AS digested,
      coalesce(btrim(u.email), '') <> '' AS "hasEmail",
      array(SELECT s.id FROM push_subscriptions s WHERE s.user_id = w.user_id
        AND (s.expiration_time IS NULL OR s.expiration_time > now())
        ORDER BY s.created_at)::text[] AS "subscriptionIds",
      ${preferenceColumns(db)}
    FROM written w JOIN users u ON u.id = w.user_id
    LEFT JOIN notification_preferences p ON p.user_id = w.user_id`
  const deliveries: Delivery[] = []
  // Rows whose digest mark differs from the decision here (none, unless the SQL form and
  // preferences.ts part ways: notify.test.ts checks every kind and preference): set right.
  const waiting: string[] = []
  const notWaiting: string[] = []
  for (const r of rows) {
    const preferences = preferencesFromRow(r)
    const wanted = wantsDelivery(preferences, n.kind)
    const digest = wanted && r.hasEmail && emailModeFor(preferences, n.kind) === 'digest'
    if (digest !== r.digested) (digest ? waiting : notWaiting).push(r.notificationId)
    if (!wanted) continue
    deliveries.push({
      userId: r.userId,
      payload: { notificationId: r.notificationId, ...n },
      subscriptionIds: r.subscriptionIds,
      email: r.hasEmail && !digest,
    })
  }
  if (waiting.length > 0 || notWaiting.length > 0) {
    console.error(
      `notify: the digest mark written for ${n.kind} differed from preferences.ts for ${waiting.length + notWaiting.length} recipient(s); set right.`,
    )
    await db`
      UPDATE notifications SET digest_state = CASE WHEN id = ANY (${db.array(waiting)}::uuid[]) THEN 'waiting' END
      WHERE id = ANY (${db.array([...waiting, ...notWaiting])}::uuid[])`
  }
  if ((await enqueueDeliveries(db, deliveries)) > 0) wakeDeliveryWorkers()
  return rows.map((r) => ({ userId: r.userId, notificationId: r.notificationId }))
}

export async function acceptedMenteeIds(db: Db, topicId: string): Promise<string[]> {
  const rows = await db<{ menteeId: string }[]>`
    SELECT mentee_id AS "menteeId" FROM applications WHERE topic_id = ${topicId} AND status = 'accepted'`
  return rows.map((r) => r.menteeId)
}
