import type postgres from 'postgres'
import type { REMINDER_KINDS } from '../../shared/notification.ts'
import type { ProgrammeSettings } from '../../shared/programme-settings.ts'
import type { Db } from '../db/connect.ts'
import { messages } from '../notifications/messages.ts'
import type { NewNotification } from '../notifications/notify.ts'

export type ReminderKind = (typeof REMINDER_KINDS)[number]

/** One reminder due: to `userId` about `subjectId` (an application or a topic). */
export type Due = {
  subjectId: string
  userId: string
  topicId: string
  subject: string
  /** When the wait began: applied, first accepted, started, concluded, last activity. */
  since: Date
  /** The applicant, for reminder_answer. */
  mentee: { username: string; full_name: string } | null
}

/** What a stage's scan needs: the clock, its threshold and which of its reminders to find. */
export type Scan = {
  now: Date
  /** Days, or months for reminder_conclude. */
  threshold: number
  limit: number
  /** The condition on (subject, person) that picks first sends or sends after a snooze. */
  pick: (subjectId: postgres.Fragment, userId: postgres.Fragment) => postgres.Fragment
}

export type Stage = {
  kind: ReminderKind
  /** When it is due, from the settings; null when the stage is off. */
  threshold: (settings: ProgrammeSettings) => number | null
  /**
   * The reminders due at `scan.now` whose condition still holds, oldest first.
   * The rows they depend on are share-locked (skipping those a person is
   * changing right now), so nobody acts between the check and the send.
   */
  due: (db: Db, scan: Scan) => Promise<Due[]>
  message: (due: Due, scan: Scan) => NewNotification
}

const DAY_MS = 24 * 60 * 60 * 1000
/** A concluded topic's feedback is asked for while it is fresh: up to this many days late. */
const FEEDBACK_STALE_DAYS = 14

const daysSince = (due: Due, scan: Scan) =>
  Math.max(0, Math.floor((scan.now.getTime() - due.since.getTime()) / DAY_MS))
const topicOf = (due: Due) => ({ id: due.topicId, subject: due.subject })

function pendingApplications(db: Db, scan: Scan, to: 'mentor' | 'mentee') {
  const user = to === 'mentor' ? db`t.mentor_id` : db`a.mentee_id`
  return db<Due[]>`
    SELECT a.id AS "subjectId", ${user} AS "userId", t.id AS "topicId", t.subject,
      a.created_at AS since,
      json_build_object('username', e.username, 'full_name', e.full_name) AS mentee
    FROM applications a JOIN topics t ON t.id = a.topic_id JOIN users e ON e.id = a.mentee_id
    WHERE a.status = 'pending'
      AND a.created_at <= ${scan.now}::timestamptz - make_interval(days => ${scan.threshold})
      AND ${scan.pick(db`a.id`, user)}
    ORDER BY a.created_at, a.id
    LIMIT ${scan.limit}
    FOR SHARE OF a SKIP LOCKED`
}

/** The mentor and the accepted mentees of topic `t`, as `p.user_id`. */
const participants = (db: Db) => db`
  CROSS JOIN LATERAL (
    SELECT t.mentor_id AS user_id
    UNION SELECT x.mentee_id FROM applications x WHERE x.topic_id = t.id AND x.status = 'accepted'
  ) p`

/** When topic `t` first accepted a mentee (a reminder to start counts from then). */
const firstAccepted = (db: Db) => db`(
  SELECT min(x.decided_at) FROM applications x WHERE x.topic_id = t.id AND x.status = 'accepted')`

export const STAGES: readonly Stage[] = [
  {
    kind: 'reminder_answer',
    threshold: (s) => s.reminders.mentorAnswerDays,
    due: (db, scan) => pendingApplications(db, scan, 'mentor'),
    message: (due, scan) =>
      messages.reminderAnswer(
        topicOf(due),
        due.mentee ?? { username: 'Someone', full_name: '' },
        due.subjectId,
        daysSince(due, scan),
      ),
  },
  {
    kind: 'application_waiting',
    threshold: (s) => s.reminders.menteeStillOpenDays,
    due: (db, scan) => pendingApplications(db, scan, 'mentee'),
    message: (due, scan) => messages.applicationWaiting(topicOf(due), daysSince(due, scan)),
  },
  {
    kind: 'reminder_start',
    threshold: (s) => s.reminders.startDays,
    due: (db, scan) => db<Due[]>`
      SELECT t.id AS "subjectId", t.mentor_id AS "userId", t.id AS "topicId", t.subject,
        ${firstAccepted(db)} AS since, NULL::json AS mentee
      FROM topics t
      WHERE t.status = 'approved' AND t.current_mentees > 0
        AND ${firstAccepted(db)} <= ${scan.now}::timestamptz - make_interval(days => ${scan.threshold})
        AND ${scan.pick(db`t.id`, db`t.mentor_id`)}
      ORDER BY since, t.id
      LIMIT ${scan.limit}
      FOR SHARE OF t SKIP LOCKED`,
    message: (due, scan) => messages.reminderStart(topicOf(due), daysSince(due, scan)),
  },
  {
    kind: 'reminder_conclude',
    threshold: (s) => (s.reminders.concludeAtProgrammeEnd ? s.programmeLengthMonths : null),
    due: (db, scan) => db<Due[]>`
      SELECT t.id AS "subjectId", t.mentor_id AS "userId", t.id AS "topicId", t.subject,
        t.started_at AS since, NULL::json AS mentee
      FROM topics t
      WHERE t.status = 'started'
        AND t.started_at <= ${scan.now}::timestamptz - make_interval(months => ${scan.threshold})
        AND ${scan.pick(db`t.id`, db`t.mentor_id`)}
      ORDER BY t.started_at, t.id
      LIMIT ${scan.limit}
      FOR SHARE OF t SKIP LOCKED`,
    message: (due, scan) => messages.reminderConclude(topicOf(due), scan.threshold),
  },
  {
    kind: 'reminder_feedback',
    threshold: (s) => s.reminders.feedbackDays,
    due: (db, scan) => db<Due[]>`
      SELECT t.id AS "subjectId", p.user_id AS "userId", t.id AS "topicId", t.subject,
        t.concluded_at AS since, NULL::json AS mentee
      FROM topics t ${participants(db)}
      WHERE t.status = 'concluded'
        AND t.concluded_at <= ${scan.now}::timestamptz - make_interval(days => ${scan.threshold})
        AND t.concluded_at > ${scan.now}::timestamptz
          - make_interval(days => ${scan.threshold + FEEDBACK_STALE_DAYS})
        AND NOT EXISTS (SELECT 1 FROM feedback f WHERE f.topic_id = t.id AND f.user_id = p.user_id)
        AND ${scan.pick(db`t.id`, db`p.user_id`)}
      ORDER BY t.concluded_at, t.id, p.user_id
      LIMIT ${scan.limit}
      FOR SHARE OF t SKIP LOCKED`,
    message: (due) => messages.reminderFeedback(topicOf(due)),
  },
  {
    kind: 'check_in',
    threshold: (s) => s.reminders.checkInDays,
    due: (db, scan) => db<Due[]>`
      SELECT t.id AS "subjectId", p.user_id AS "userId", t.id AS "topicId", t.subject,
        t.last_activity_at AS since, NULL::json AS mentee
      FROM topics t ${participants(db)}
      WHERE t.status = 'started'
        AND t.last_activity_at <= ${scan.now}::timestamptz - make_interval(days => ${scan.threshold})
        AND ${scan.pick(db`t.id`, db`p.user_id`)}
      ORDER BY t.last_activity_at, t.id, p.user_id
      LIMIT ${scan.limit}
      FOR SHARE OF t SKIP LOCKED`,
    message: (due, scan) => messages.checkIn(topicOf(due), daysSince(due, scan)),
  },
]
