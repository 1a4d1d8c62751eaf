import { Hono } from 'hono'
import {
  type CheckInTopic,
  type FollowUp,
  followUpSchema,
  type WaitingApplication,
} from '../../shared/follow-up.ts'
import type { Db } from '../db/connect.ts'
import { requireAdmin } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { route } from '../http/route.ts'
import { readProgrammeSettings } from '../settings/queries.ts'

/** Entries of each list at most. */
const FOLLOW_UP_LIMIT = 200

const person = (alias: string, db: Db) =>
  db`json_build_object('id', ${db(alias)}.id, 'username', ${db(alias)}.username,
    'full_name', ${db(alias)}.full_name)`

/**
 * What administrators should look at (decision 0039), at `now` (the
 * database's clock when not given), longest waiting first: pending
 * applications past the "still open" threshold (none while it is off), and
 * started topics quiet past the escalation threshold or whose people asked
 * for help at a check-in since the last activity.
 */
export async function readFollowUp(db: Db, now?: Date): Promise<FollowUp> {
  const { reminders } = await readProgrammeSettings(db)
  const at = now ? db`${now}::timestamptz` : db`now()`
  const waitDays = reminders.menteeStillOpenDays
  const waitingForAnswer =
    waitDays === null
      ? []
      : await db<WaitingApplication[]>`
    SELECT a.id AS "applicationId", t.id AS "topicId", t.subject,
      ${person('e', db)} AS mentee, ${person('m', db)} AS mentor, a.created_at AS "appliedAt",
      greatest(0, floor(extract(epoch FROM ${at} - a.created_at) / 86400))::int AS "daysWaiting",
      EXISTS (SELECT 1 FROM reminders_sent r
              WHERE r.stage = 'reminder_answer' AND r.subject_id = a.id) AS "mentorReminded"
    FROM applications a JOIN topics t ON t.id = a.topic_id
      JOIN users e ON e.id = a.mentee_id JOIN users m ON m.id = t.mentor_id
    WHERE a.status = 'pending' AND a.created_at <= ${at} - make_interval(days => ${waitDays})
    ORDER BY a.created_at, a.id
    LIMIT ${FOLLOW_UP_LIMIT}`
  const quietDays = reminders.checkInEscalationDays
  const needsCheckIn = await db<CheckInTopic[]>`
    SELECT t.id AS "topicId", t.subject, ${person('m', db)} AS mentor,
      coalesce((SELECT json_agg(${person('u', db)} ORDER BY x.created_at, u.id)
        FROM applications x JOIN users u ON u.id = x.mentee_id
        WHERE x.topic_id = t.id AND x.status = 'accepted'), '[]'::json) AS mentees,
      coalesce(t.started_at, t.updated_at) AS "startedAt", t.last_activity_at AS "lastActivityAt",
      greatest(0, floor(extract(epoch FROM ${at} - t.last_activity_at) / 86400))::int AS "daysQuiet",
      h.help AS "needsHelp"
    FROM topics t JOIN users m ON m.id = t.mentor_id
    CROSS JOIN LATERAL (SELECT EXISTS (
      SELECT 1 FROM notifications n
      WHERE n.topic_id = t.id AND n.kind = 'check_in' AND n.response = 'need_help'
        AND n.responded_at > t.last_activity_at) AS help) h
    WHERE t.status = 'started'
      AND (h.help ${
        quietDays === null
          ? db``
          : db`OR t.last_activity_at <= ${at} - make_interval(days => ${quietDays})`
      })
    ORDER BY t.last_activity_at, t.id
    LIMIT ${FOLLOW_UP_LIMIT}`
  return { waitingForAnswer, needsCheckIn }
}

/** /api/admin/follow-up: the administrators' "Waiting for an answer" and "Needs a check-in". */
export const followUpRoutes = new Hono<AppEnv>()

followUpRoutes.get(
  '/',
  route({
    tag: 'Administration',
    errors: [401, 403],
    summary: 'Follow-up lists',
    description: `What administrators should look at, longest waiting first, at most ${FOLLOW_UP_LIMIT} of each: "Waiting for an answer" (applications pending past the programme's menteeStillOpenDays; empty while it is off) and "Needs a check-in" (started topics with no activity for checkInEscalationDays, or whose mentor or mentee answered a check-in with "We could use some help" since the last activity).`,
    response: { status: 200, schema: followUpSchema, description: 'The two lists' },
  }),
  async (c) => {
    requireAdmin(c, 'Only administrators can see the follow-up lists.')
    return c.json(await readFollowUp(c.get('db')))
  },
)
