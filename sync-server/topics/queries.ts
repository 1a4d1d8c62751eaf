import type { Actor } from '../../shared/decision.ts'
import { canViewTopic, PUBLIC_TOPIC_STATUSES, type Topic } from '../../shared/topic.ts'
import type { Db } from '../db/connect.ts'
import { ApiError } from '../http/errors.ts'

/** Columns of a topic `t` as the API answers it (spec section 3), with its `mentor` object (`m`). */
export function topicColumns(db: Db) {
  return db`
    t.id, t.subject, t.description, t.max_mentees::int AS "maxMentees",
    t.current_mentees::int AS "currentMentees", t.seniority_required::text[] AS "seniorityRequired",
    t.location, t.interests, t.status, t.mentor_id AS "mentorId",
    json_build_object('id', m.id, 'username', m.username, 'full_name', m.full_name,
                      'profileImage', m.profile_image) AS mentor,
    t.mentor_feedback AS "mentorFeedback", t.rejection_reason AS "rejectionReason",
    t.created_at AS "createdAt", t.updated_at AS "updatedAt"`
}

/**
 * A topic `t` with its mentor `m` as the API answers it, as a record `answer`
 * for Postgres to write as JSON (`row_to_json(answer)`): the same object as
 * `topicColumns` read by postgres.js and serialised with JSON.stringify
 * (timestamps as `toISOString()` writes them, milliseconds in UTC), for a long
 * list where parsing every row into objects and serialising them again was
 * most of the answer's time (bench:server). Goes in the FROM list after `t`
 * and `m`; row_to_json writes compact JSON, faster than json_build_object.
 * topics/search.test.ts checks the two agree.
 */
export function topicAnswer(db: Db) {
  return db`LATERAL (
    SELECT t.id, t.subject, t.description, t.max_mentees AS "maxMentees",
           t.current_mentees AS "currentMentees", t.seniority_required AS "seniorityRequired",
           t.location, t.interests, t.status, t.mentor_id AS "mentorId",
           (SELECT row_to_json(mentor) FROM (SELECT m.id, m.username, m.full_name,
                                                    m.profile_image AS "profileImage") mentor) AS mentor,
           t.mentor_feedback AS "mentorFeedback", t.rejection_reason AS "rejectionReason",
           ${isoUtc(db, 'created_at')} AS "createdAt", ${isoUtc(db, 'updated_at')} AS "updatedAt"
  ) answer`
}

/** A timestamptz of `t` as JavaScript's `Date#toISOString` writes it (both drop what is below a millisecond). */
function isoUtc(db: Db, column: 'created_at' | 'updated_at') {
  return db`to_char(t.${db(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
}

/**
 * Topics `t` the actor may see: the SQL form of `canViewTopic` (public statuses
 * for everyone, the rest for their mentor and admins), with the statuses
 * taken from shared/topic.ts as a parameter.
 */
export function visibleTo(db: Db, actor: Actor) {
  if (actor.isAdmin) return db`true`
  return db`(t.status = ANY(${db.array([...PUBLIC_TOPIC_STATUSES])}::topic_status[]) OR t.mentor_id = ${actor.id})`
}

type TopicFilter = { mentorId?: string; topicId?: string }

export async function listTopics(db: Db, actor: Actor, filter: TopicFilter = {}): Promise<Topic[]> {
  return db<Topic[]>`
    SELECT ${topicColumns(db)}
    FROM topics t JOIN users m ON m.id = t.mentor_id
    WHERE ${visibleTo(db, actor)}
      ${filter.mentorId ? db`AND t.mentor_id = ${filter.mentorId}` : db``}
      ${filter.topicId ? db`AND t.id = ${filter.topicId}` : db``}
    ORDER BY t.created_at DESC, t.id`
}

/** One topic the actor may see, or undefined (a hidden topic is as good as missing). */
export async function getVisibleTopic(
  db: Db,
  actor: Actor,
  id: string,
): Promise<Topic | undefined> {
  const [topic] = await listTopics(db, actor, { topicId: id })
  return topic
}

export type LockedTopic = {
  id: string
  subject: string
  status: Topic['status']
  mentorId: string
  maxMentees: number
  currentMentees: number
}

/**
 * Reads a topic's rule-relevant fields and locks its row for the rest of the
 * transaction, so concurrent accepts, starts and edits on it run one at a time.
 */
export async function lockTopic(db: Db, id: string): Promise<LockedTopic | undefined> {
  const [topic] = await db<LockedTopic[]>`
    SELECT id, subject, status, mentor_id AS "mentorId", max_mentees::int AS "maxMentees",
           current_mentees::int AS "currentMentees"
    FROM topics WHERE id = ${id} FOR UPDATE`
  return topic
}

/**
 * Locks a topic the actor may see, for a change to it; a topic the actor may
 * not see answers 404 like a missing one (decision 0004).
 */
export async function lockVisibleTopic(db: Db, actor: Actor, id: string): Promise<LockedTopic> {
  const topic = await lockTopic(db, id)
  if (!topic || !canViewTopic(actor, topic)) throw new ApiError(404, 'Topic not found')
  return topic
}

/** Columns of a feedback entry `f` as the API answers it, with its author `u`. */
export function feedbackColumns(db: Db) {
  return db`
    f.id, f.topic_id AS "topicId", f.feedback, f.rating::int AS rating, f.is_mentor AS "isMentor",
    json_build_object('id', u.id, 'username', u.username, 'full_name', u.full_name) AS user,
    f.created_at AS "createdAt", f.updated_at AS "updatedAt"`
}
