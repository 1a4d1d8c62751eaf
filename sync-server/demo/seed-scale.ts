import type { Sql } from '../db/connect.ts'
import { generateHistory, type ScaleOptions } from './scale-history.ts'
import { INTERESTS } from './seed-data.ts'

/** `--size company`: the scale the performance targets are set at. */
export const COMPANY_USERS = 5_000

export type ScaleCounts = {
  users: number
  topics: number
  applications: number
  feedback: number
  notifications: number
}

const CHUNK = 5_000

/**
 * Writes a generated programme history (scale-history.ts) into an empty
 * database in one transaction, through bulk `unnest` inserts: the company size
 * (5,000 users, 10,000 topics, 20,000 applications) loads in seconds. The user
 * `admin` is an administrator with a few thousand notifications (for the bell
 * and pull at scale). Refuses a database that already has users.
 *
 * @example
 * await seedScale(sql, { users: COMPANY_USERS })
 */
export async function seedScale(sql: Sql, options: ScaleOptions): Promise<ScaleCounts> {
  const data = generateHistory(options)
  const notifications = Math.max(50, Math.round((3_000 * options.users) / COMPANY_USERS))
  await sql.begin(async (tx) => {
    const [row] = await tx<{ empty: boolean }[]>`SELECT NOT EXISTS (SELECT 1 FROM users) AS empty`
    if (!row?.empty)
      throw new Error('The database already has users: seed:scale needs an empty one.')
    const text = (list: string[]) => list.join('\u001f')
    for (const c of chunks(data.users)) {
      await tx`
        INSERT INTO users (id, username, full_name, email, seniority, interests, is_admin, bio, created_at, updated_at,
                           looking_for_mentor, preferred_location)
        SELECT id, username, full_name, username || '@pairwise.example', seniority,
               string_to_array(interests, E'\\x1f'), is_admin, '', created_at, created_at,
               looking_for_mentor, nullif(location, '')::topic_location
        FROM unnest(${tx.array(c.map((u) => u.id))}::uuid[], ${tx.array(c.map((u) => u.username))}::text[],
                    ${tx.array(c.map((u) => u.fullName))}::text[],
                    ${tx.array(c.map((u) => u.seniority ?? ''))}::text[],
                    ${tx.array(c.map((u) => text(u.interests)))}::text[], ${tx.array(c.map((u) => u.isAdmin))}::bool[],
                    ${tx.array(c.map((u) => u.createdAt.toISOString()))}::timestamptz[],
                    ${tx.array(c.map((u) => u.lookingForMentor))}::bool[],
                    ${tx.array(c.map((u) => u.preferredLocation ?? ''))}::text[])
          AS x(id, username, full_name, seniority_text, interests, is_admin, created_at, looking_for_mentor, location)
          CROSS JOIN LATERAL (SELECT nullif(seniority_text, '')::seniority AS seniority) s`
    }
    await tx`INSERT INTO interests (name) SELECT unnest(${tx.array(INTERESTS)}::text[]) ON CONFLICT DO NOTHING`
    await tx`INSERT INTO notification_preferences (user_id) SELECT id FROM users`
    for (const c of chunks(data.topics)) {
      const iso = (d: Date | null) => d?.toISOString() ?? null
      const last = (t: (typeof c)[number]) =>
        t.concludedAt ?? t.startedAt ?? t.reviewedAt ?? t.createdAt
      await tx`
        INSERT INTO topics (id, subject, description, max_mentees, current_mentees, seniority_required, location,
                            interests, status, mentor_id, mentor_feedback, rejection_reason, created_at, updated_at,
                            submitted_at, reviewed_at, started_at, concluded_at)
        SELECT id, subject, '<p>' || subject || '</p>', max_mentees, current_mentees,
               string_to_array(seniority, E'\\x1f')::seniority[], location::topic_location,
               string_to_array(interests, E'\\x1f'), status::topic_status, mentor_id, mentor_feedback,
               rejection_reason, created_at, updated_at, created_at, reviewed_at, started_at, concluded_at
        FROM unnest(${tx.array(c.map((t) => t.id))}::uuid[], ${tx.array(c.map((t) => t.subject))}::text[],
                    ${tx.array(c.map((t) => t.maxMentees))}::int[], ${tx.array(c.map((t) => t.currentMentees))}::int[],
                    ${tx.array(c.map((t) => text(t.seniorityRequired)))}::text[], ${tx.array(c.map((t) => t.location))}::text[],
                    ${tx.array(c.map((t) => text(t.interests)))}::text[], ${tx.array(c.map((t) => t.status))}::text[],
                    ${tx.array(c.map((t) => t.mentorId))}::uuid[], ${tx.array(c.map((t) => t.mentorFeedback))}::text[],
                    ${tx.array(c.map((t) => t.rejectionReason))}::text[],
                    ${tx.array(c.map((t) => t.createdAt.toISOString()))}::timestamptz[],
                    ${tx.array(c.map((t) => last(t).toISOString()))}::timestamptz[],
                    ${tx.array(c.map((t) => iso(t.reviewedAt)))}::timestamptz[],
                    ${tx.array(c.map((t) => iso(t.startedAt)))}::timestamptz[],
                    ${tx.array(c.map((t) => iso(t.concludedAt)))}::timestamptz[])
          AS x(id, subject, max_mentees, current_mentees, seniority, location, interests, status, mentor_id,
               mentor_feedback, rejection_reason, created_at, updated_at, reviewed_at, started_at, concluded_at)`
    }
    // The derived matching columns (0008) once at the end, not row by row.
    await tx`ALTER TABLE applications DISABLE TRIGGER applications_matching_derived`
    for (const c of chunks(data.applications)) {
      await tx`
        INSERT INTO applications (id, topic_id, mentee_id, status, rejection_reason, created_at, updated_at, decided_at)
        SELECT id, topic_id, mentee_id, status::application_status, rejection_reason, created_at,
               coalesce(decided_at, created_at), decided_at
        FROM unnest(${tx.array(c.map((a) => a.id))}::uuid[], ${tx.array(c.map((a) => a.topicId))}::uuid[],
                    ${tx.array(c.map((a) => a.menteeId))}::uuid[], ${tx.array(c.map((a) => a.status))}::text[],
                    ${tx.array(c.map((a) => a.rejectionReason))}::text[],
                    ${tx.array(c.map((a) => a.createdAt.toISOString()))}::timestamptz[],
                    ${tx.array(c.map((a) => a.decidedAt?.toISOString() ?? null))}::timestamptz[])
          AS x(id, topic_id, mentee_id, status, rejection_reason, created_at, decided_at)`
    }
    await tx`ALTER TABLE applications ENABLE TRIGGER applications_matching_derived`
    await tx`SELECT refresh_matching_derived()`
    for (const c of chunks(data.feedback)) {
      await tx`
        INSERT INTO feedback (topic_id, user_id, feedback, rating, is_mentor, created_at, updated_at)
        SELECT topic_id, user_id, 'It was worth the time: clear goals and honest advice.', rating, is_mentor,
               created_at, created_at
        FROM unnest(${tx.array(c.map((f) => f.topicId))}::uuid[], ${tx.array(c.map((f) => f.userId))}::uuid[],
                    ${tx.array(c.map((f) => f.rating))}::int[], ${tx.array(c.map((f) => f.isMentor))}::bool[],
                    ${tx.array(c.map((f) => f.createdAt.toISOString()))}::timestamptz[])
          AS x(topic_id, user_id, rating, is_mentor, created_at)`
    }
    // The administrator's bell: the reviews they were asked for, most of them read.
    await tx`
      INSERT INTO notifications (user_id, kind, title, message, link, read, created_at)
      SELECT (SELECT id FROM users WHERE username = 'admin'), 'topic_for_review', 'New topic for review',
             '"' || t.subject || '" is waiting for your review.', '/admin/topics', i > 20, t.created_at
      FROM (SELECT subject, created_at, row_number() OVER (ORDER BY created_at DESC) AS i
            FROM topics ORDER BY created_at DESC LIMIT ${notifications}) t`
  })
  return {
    users: data.users.length,
    topics: data.topics.length,
    applications: data.applications.length,
    feedback: data.feedback.length,
    notifications: Math.min(notifications, data.topics.length),
  }
}

function* chunks<T>(list: T[]): Generator<T[]> {
  for (let i = 0; i < list.length; i += CHUNK) yield list.slice(i, i + CHUNK)
}
