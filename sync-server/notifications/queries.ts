import type { Notification, NotificationKind } from '../../shared/notification.ts'
import {
  DEFAULT_PREFERENCES,
  EMAIL_CATEGORIES,
  type EmailCategory,
  type EmailDelivery,
  emailModeFor,
  isTimeZone,
  PREFERENCE_FOR_KIND,
  type Preferences,
  type QuietHours,
  wantsDelivery,
} from '../../shared/preferences.ts'
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

export type PreferenceRow = Preferences['emailNotifications'] & {
  /** False when the user has no preferences row (a LEFT JOIN found none). */
  hasPreferences: boolean
  reminders: boolean
  emailDelivery: Partial<EmailDelivery>
  timeZone: string | null
  digestHour: number
  quietHours: QuietHours
}

/** The column of notification_preferences that turns a category on or off. */
const CATEGORY_COLUMN: Record<EmailCategory, string> = {
  newApplications: 'new_applications',
  topicStatusUpdates: 'topic_status_updates',
  applicationStatusUpdates: 'application_status_updates',
  newTopicsForReview: 'new_topics_for_review',
  reminders: 'reminders',
}

/**
 * The digest_state a new notification of `kind` starts with, for the user
 * `u` with the preferences row `p` (NULL when a LEFT JOIN found none):
 * 'waiting' when its e-mail goes in the daily digest, else NULL. The SQL form
 * of what notify() decides in JavaScript (preferencesFromRow, wantsDelivery,
 * emailModeFor, an e-mail address), so the insert writes it: an UPDATE after
 * the insert cost more than the insert (a new row version, its indexes and a
 * sync stamp) for every topic proposed, whose administrators take reviews as a
 * digest by default. notify() checks each row against its own decision.
 */
export function digestStateSql(db: Db, kind: NotificationKind) {
  const category = PREFERENCE_FOR_KIND[kind]
  const defaultOn = wantsDelivery(DEFAULT_PREFERENCES, kind)
  const defaultMode = emailModeFor(DEFAULT_PREFERENCES, kind)
  return db`CASE WHEN coalesce(btrim(u.email), '') <> ''
    AND CASE WHEN p.user_id IS NULL THEN ${defaultOn}::boolean
             ELSE p.${db(CATEGORY_COLUMN[category])} END
    AND CASE WHEN p.user_id IS NOT NULL
                  AND p.email_delivery ->> ${category}::text IN ('immediate', 'digest')
             THEN p.email_delivery ->> ${category}::text
             ELSE ${defaultMode}::text END = 'digest'
    THEN 'waiting' END`
}

/** Columns of the preferences row `p`, as preferencesFromRow reads them. */
export function preferenceColumns(db: Db) {
  return db`p.user_id IS NOT NULL AS "hasPreferences",
    p.new_applications AS "newApplications", p.topic_status_updates AS "topicStatusUpdates",
    p.application_status_updates AS "applicationStatusUpdates",
    p.new_topics_for_review AS "newTopicsForReview", p.reminders,
    p.email_delivery AS "emailDelivery", p.time_zone AS "timeZone", p.digest_hour AS "digestHour",
    json_build_object('enabled', p.quiet_enabled, 'from', p.quiet_from, 'to', p.quiet_to,
      'weekends', p.quiet_weekends) AS "quietHours"`
}

/**
 * The preferences a stored row stands for; no row (or a LEFT JOIN that found
 * none) is the defaults. A
 * category missing from email_delivery has its default mode, and a time zone
 * this runtime no longer knows counts as not known.
 */
export function preferencesFromRow(row: PreferenceRow | null | undefined): Preferences {
  if (!row?.hasPreferences) return DEFAULT_PREFERENCES
  const emailDelivery = { ...DEFAULT_PREFERENCES.emailDelivery }
  for (const category of EMAIL_CATEGORIES) {
    const mode = row.emailDelivery?.[category]
    if (mode === 'immediate' || mode === 'digest') emailDelivery[category] = mode
  }
  return {
    emailNotifications: {
      newApplications: row.newApplications,
      topicStatusUpdates: row.topicStatusUpdates,
      applicationStatusUpdates: row.applicationStatusUpdates,
      newTopicsForReview: row.newTopicsForReview,
    },
    reminders: row.reminders,
    emailDelivery,
    timeZone: row.timeZone && isTimeZone(row.timeZone) ? row.timeZone : null,
    digestHour: row.digestHour,
    quietHours: row.quietHours,
  }
}

/** A user's preferences as the API answers them; the defaults when none are stored. */
export async function readPreferences(db: Db, userId: string): Promise<Preferences> {
  const [row] = await db<PreferenceRow[]>`
    SELECT ${preferenceColumns(db)} FROM notification_preferences p WHERE p.user_id = ${userId}`
  return preferencesFromRow(row)
}

/** Stores a user's full preferences (insert or replace). */
export async function writePreferences(db: Db, userId: string, p: Preferences): Promise<void> {
  const e = p.emailNotifications
  const q = p.quietHours
  await db`
    INSERT INTO notification_preferences (user_id, new_applications, topic_status_updates,
      application_status_updates, new_topics_for_review, reminders, email_delivery, time_zone,
      digest_hour, quiet_enabled, quiet_from, quiet_to, quiet_weekends)
    VALUES (${userId}, ${e.newApplications}, ${e.topicStatusUpdates}, ${e.applicationStatusUpdates},
      ${e.newTopicsForReview}, ${p.reminders}, ${db.json(p.emailDelivery)}, ${p.timeZone},
      ${p.digestHour}, ${q.enabled}, ${q.from}, ${q.to}, ${q.weekends})
    ON CONFLICT (user_id) DO UPDATE SET new_applications = EXCLUDED.new_applications,
      topic_status_updates = EXCLUDED.topic_status_updates,
      application_status_updates = EXCLUDED.application_status_updates,
      new_topics_for_review = EXCLUDED.new_topics_for_review, reminders = EXCLUDED.reminders,
      email_delivery = EXCLUDED.email_delivery, time_zone = EXCLUDED.time_zone,
      digest_hour = EXCLUDED.digest_hour, quiet_enabled = EXCLUDED.quiet_enabled,
      quiet_from = EXCLUDED.quiet_from, quiet_to = EXCLUDED.quiet_to,
      quiet_weekends = EXCLUDED.quiet_weekends, updated_at = now()`
}
