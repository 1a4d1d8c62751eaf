import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { APPLICATION_STATUSES, TOPIC_STATUSES } from '../../shared/constants.ts'
import { NOTIFICATION_KINDS, REMINDER_KINDS } from '../../shared/notification.ts'
import type { Sql } from '../db/connect.ts'
import { startTestServer, type TestServer } from '../test/server.ts'
import { sanitizeDescription } from '../topics/sanitize.ts'
import { seedIfEmpty } from './seed.ts'
import {
  APPLICATIONS,
  DISMISSALS,
  FEEDBACK,
  INTERESTS,
  INVITATIONS,
  TOPICS,
  USERS,
} from './seed-data.ts'

const TABLES = [
  'users',
  'interests',
  'topics',
  'applications',
  'feedback',
  'notifications',
  'notification_preferences',
  'invitations',
  'topic_dismissals',
] as const

async function rowCounts(sql: Sql): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const table of TABLES) {
    const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM ${sql(table)}`
    counts[table] = row?.n ?? -1
  }
  return counts
}

type TopicRow = {
  id: string
  subject: string
  status: string
  mentorId: string
  maxMentees: number
  currentMentees: number
  accepted: number
  rejectionReason: string | null
  mentorFeedback: string | null
  description: string
  interests: string[]
}

describe('seedIfEmpty', () => {
  let server: TestServer
  let sql: Sql
  let countsBefore: Record<string, number>
  let firstResult: boolean

  beforeAll(async () => {
    server = await startTestServer()
    sql = server.sql
    countsBefore = await rowCounts(sql)
    firstResult = await seedIfEmpty(sql)
  })
  afterAll(async () => {
    await server?.stop()
  })

  const topics = () => sql<TopicRow[]>`
    SELECT t.id, t.subject, t.status::text AS status, t.mentor_id AS "mentorId",
           t.max_mentees::int AS "maxMentees", t.current_mentees::int AS "currentMentees",
           t.rejection_reason AS "rejectionReason", t.mentor_feedback AS "mentorFeedback",
           t.description, t.interests,
           (SELECT count(*)::int FROM applications a
             WHERE a.topic_id = t.id AND a.status = 'accepted') AS accepted
    FROM topics t`

  it('fills an empty database and answers true', async () => {
    expect(countsBefore.users).toBe(0)
    expect(firstResult).toBe(true)
    expect(await rowCounts(sql)).toEqual({
      users: USERS.length,
      interests: INTERESTS.length,
      topics: TOPICS.length,
      applications: APPLICATIONS.length,
      feedback: FEEDBACK.length,
      notifications: expect.any(Number),
      notification_preferences: USERS.length,
      invitations: INVITATIONS.length,
      topic_dismissals: DISMISSALS.length,
    })
  })

  it('has people looking for a mentor, preferred locations and the derived matching columns', async () => {
    const users = await sql<
      {
        looking: boolean
        location: string | null
        hasMentor: boolean
        days: number | null
        accepted: boolean
        mentor: boolean
      }[]
    >`
      SELECT looking_for_mentor AS looking, preferred_location::text AS location,
             has_mentor AS "hasMentor", answers_within_days::int AS days,
             EXISTS (SELECT 1 FROM applications a WHERE a.mentee_id = u.id AND a.status = 'accepted')
               AS accepted,
             EXISTS (SELECT 1 FROM topics t WHERE t.mentor_id = u.id) AS mentor
      FROM users u`
    const looking = users.filter((u) => u.looking)
    expect(looking.length / users.length).toBeGreaterThan(0.3)
    expect(looking.length / users.length).toBeLessThan(0.5)
    expect(looking.filter((u) => !u.mentor).length).toBeGreaterThan(looking.length / 2)
    expect(new Set(users.map((u) => u.location))).toEqual(
      new Set([null, 'online', 'in-person', 'both']),
    )
    for (const u of users) expect(u.hasMentor).toBe(u.accepted)
    expect(users.some((u) => u.days !== null)).toBe(true)
    // Every invitation is to someone looking for a mentor, from the topic's mentor.
    const [wrong] = await sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM invitations i JOIN topics t ON t.id = i.topic_id
      JOIN users u ON u.id = i.mentee_id
      WHERE t.mentor_id <> i.mentor_id OR NOT u.looking_for_mentor OR t.status <> 'approved'`
    expect(wrong?.n).toBe(0)
  })

  it('answers false and adds nothing when the database already has users', async () => {
    const before = await rowCounts(sql)
    expect(await seedIfEmpty(sql)).toBe(false)
    expect(await rowCounts(sql)).toEqual(before)
  })

  it('has an administrator named admin and realistic people', async () => {
    const users = await sql<
      { username: string; fullName: string; email: string; bio: string; interests: string[] }[]
    >`SELECT username, full_name AS "fullName", email, bio, interests FROM users`
    const [admin] = await sql<{ isAdmin: boolean; fullName: string }[]>`
      SELECT is_admin AS "isAdmin", full_name AS "fullName" FROM users WHERE username = 'admin'`
    expect(admin?.isAdmin).toBe(true)
    expect(admin?.fullName).not.toBe('')
    for (const u of users) {
      expect(u.email).toBe(`${u.username}@pairwise.example`)
      expect(u.fullName.split(' ').length).toBeGreaterThanOrEqual(2)
      expect(u.bio.length).toBeGreaterThan(20)
      expect(u.interests.length).toBeGreaterThanOrEqual(2)
      expect(u.interests.length).toBeLessThanOrEqual(5)
    }
    const [withoutSeniority] = await sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM users WHERE seniority IS NULL`
    expect(withoutSeniority?.n).toBeGreaterThanOrEqual(1)
  })

  it('has topics in every status and applications in every status', async () => {
    const rows = await topics()
    const statuses = rows.map((t) => t.status)
    expect([...new Set(statuses)].sort()).toEqual([...TOPIC_STATUSES].sort())
    const count = (s: string) => statuses.filter((x) => x === s).length
    expect(count('proposed')).toBeGreaterThanOrEqual(2)
    expect(count('approved')).toBeGreaterThanOrEqual(4)
    expect(count('started')).toBeGreaterThanOrEqual(2)
    expect(count('concluded')).toBeGreaterThanOrEqual(2)
    const approved = rows.filter((t) => t.status === 'approved')
    expect(approved.some((t) => t.currentMentees === 0)).toBe(true)
    expect(approved.some((t) => t.currentMentees === t.maxMentees)).toBe(true)

    const apps = await sql<{ status: string }[]>`SELECT status::text AS status FROM applications`
    expect([...new Set(apps.map((a) => a.status))].sort()).toEqual([...APPLICATION_STATUSES].sort())
  })

  it('keeps each topic consistent with its status', async () => {
    for (const t of await topics()) {
      expect(t.rejectionReason !== null, t.subject).toBe(t.status === 'rejected')
      expect(t.mentorFeedback !== null, t.subject).toBe(t.status === 'concluded')
      if (t.status === 'rejected') expect(t.rejectionReason?.trim()).not.toBe('')
    }
  })

  it('counts exactly the accepted applications as current mentees, within the maximum', async () => {
    for (const t of await topics()) {
      expect(t.currentMentees, t.subject).toBe(t.accepted)
      expect(t.currentMentees, t.subject).toBeLessThanOrEqual(t.maxMentees)
      if (t.status === 'started' || t.status === 'concluded')
        expect(t.accepted, t.subject).toBeGreaterThanOrEqual(1)
    }
  })

  it('has only applications the rules allow', async () => {
    const apps = await sql<
      { status: string; topicStatus: string; own: boolean; reason: string | null }[]
    >`
      SELECT a.status::text AS status, t.status::text AS "topicStatus",
             a.mentee_id = t.mentor_id AS own, a.rejection_reason AS reason
      FROM applications a JOIN topics t ON t.id = a.topic_id`
    for (const a of apps) {
      expect(a.own).toBe(false)
      if (a.status === 'pending') expect(a.topicStatus).toBe('approved')
      if (a.status === 'accepted')
        expect(['approved', 'started', 'concluded']).toContain(a.topicStatus)
      expect(['proposed', 'rejected']).not.toContain(a.topicStatus)
    }
    expect(
      apps.some(
        (a) =>
          a.status === 'rejected' &&
          a.topicStatus === 'started' &&
          a.reason === 'The topic has started',
      ),
    ).toBe(true)
    expect(apps.some((a) => a.status === 'rejected' && a.reason !== 'The topic has started')).toBe(
      true,
    )
  })

  it('has feedback only from the mentor and accepted mentees of concluded topics', async () => {
    const rows = await sql<
      {
        topicStatus: string
        isMentor: boolean
        byMentor: boolean
        byAcceptedMentee: boolean
        rating: number
      }[]
    >`
      SELECT t.status::text AS "topicStatus", f.is_mentor AS "isMentor",
             f.user_id = t.mentor_id AS "byMentor", f.rating::int AS rating,
             EXISTS (SELECT 1 FROM applications a WHERE a.topic_id = t.id
                       AND a.mentee_id = f.user_id AND a.status = 'accepted') AS "byAcceptedMentee"
      FROM feedback f JOIN topics t ON t.id = f.topic_id`
    expect(rows.length).toBeGreaterThan(0)
    for (const f of rows) {
      expect(f.topicStatus).toBe('concluded')
      expect(f.isMentor).toBe(f.byMentor)
      expect(f.byMentor || f.byAcceptedMentee).toBe(true)
      expect(f.rating).toBeGreaterThanOrEqual(1)
      expect(f.rating).toBeLessThanOrEqual(5)
    }
    expect(rows.some((f) => f.isMentor)).toBe(true)
    expect(rows.some((f) => !f.isMentor)).toBe(true)
  })

  it('knows every interest that users and topics use', async () => {
    const [row] = await sql<{ unknown: string[] }[]>`
      SELECT coalesce(array_agg(DISTINCT i), '{}') AS unknown
      FROM (SELECT unnest(interests) AS i FROM users
            UNION SELECT unnest(interests) FROM topics) used
      WHERE NOT EXISTS (SELECT 1 FROM interests k WHERE lower(k.name) = lower(i))`
    expect(row?.unknown).toEqual([])
  })

  it('writes descriptions in the editor subset of HTML', async () => {
    for (const t of await topics()) {
      expect(t.description.startsWith('<'), t.subject).toBe(true)
      expect(sanitizeDescription(t.description), t.subject).toBe(t.description)
    }
  })

  it('has read and unread notifications of every kind, spread over past weeks', async () => {
    const rows = await sql<
      { kind: string; read: boolean; link: string | null; daysAgo: number; topicOk: boolean }[]
    >`
      SELECT kind::text AS kind, read, link,
             extract(epoch FROM now() - created_at)::float8 / 86400 AS "daysAgo",
             (link NOT LIKE '/topics/%'
               OR EXISTS (SELECT 1 FROM topics t WHERE link = '/topics/' || t.id)) AS "topicOk"
      FROM notifications`
    // Every kind an event sends; reminders are the reminder runner's, which sends
    // what the seeded history has due on the server's first minute.
    const events = NOTIFICATION_KINDS.filter(
      (kind) => !(REMINDER_KINDS as readonly string[]).includes(kind),
    )
    expect([...new Set(rows.map((n) => n.kind))].sort()).toEqual([...events].sort())
    expect(rows.some((n) => n.read)).toBe(true)
    expect(rows.some((n) => !n.read)).toBe(true)
    expect(rows.every((n) => n.topicOk && n.link !== null)).toBe(true)
    expect(Math.max(...rows.map((n) => n.daysAgo))).toBeGreaterThan(21)
    expect(Math.min(...rows.map((n) => n.daysAgo))).toBeLessThan(3)
    const [recipients] = await sql<{ n: number }[]>`
      SELECT count(DISTINCT user_id)::int AS n FROM notifications`
    expect(recipients?.n).toBeGreaterThanOrEqual(5)
  })

  it('gives every user notification preferences, some with switches off', async () => {
    const [row] = await sql<{ missing: number; changed: number }[]>`
      SELECT (SELECT count(*)::int FROM users u WHERE NOT EXISTS
                (SELECT 1 FROM notification_preferences p WHERE p.user_id = u.id)) AS missing,
             (SELECT count(*)::int FROM notification_preferences
               WHERE NOT (new_applications AND topic_status_updates
                          AND application_status_updates AND new_topics_for_review)) AS changed`
    expect(row?.missing).toBe(0)
    expect(row?.changed).toBeGreaterThanOrEqual(1)
  })

  it('shows the admin every topic, proposed ones included', async () => {
    const admin = await server.signIn('admin')
    expect(admin.user?.isAdmin).toBe(true)
    const res = await admin.get('/api/topics')
    expect(res.status).toBe(200)
    const statuses: string[] = res.body.map((t: { status: string }) => t.status)
    expect(statuses.length).toBe(TOPICS.length)
    expect(statuses).toContain('proposed')
    expect(statuses).toContain('rejected')
  })

  it('shows a mentee only the public topics', async () => {
    const mentee = await server.signIn('aisha.khan')
    expect(mentee.user?.isAdmin).toBe(false)
    const res = await mentee.get('/api/topics')
    expect(res.status).toBe(200)
    const statuses: string[] = res.body.map((t: { status: string }) => t.status)
    const publicCount = TOPICS.filter((t) =>
      ['approved', 'started', 'concluded'].includes(t.status),
    ).length
    expect(statuses.length).toBe(publicCount)
    expect(statuses).not.toContain('proposed')
    expect(statuses).not.toContain('rejected')
  })

  it("shows a mentor their own rejected topic but not others' proposed ones", async () => {
    const mentor = await server.signIn('priya.sharma')
    const res = await mentor.get('/api/topics')
    expect(res.status).toBe(200)
    const hidden = res.body.filter((t: { status: string }) =>
      ['proposed', 'rejected'].includes(t.status),
    )
    expect(hidden.length).toBeGreaterThan(0)
    for (const t of hidden) expect(t.mentor.username).toBe('priya.sharma')
  })
})

describe('seedIfEmpty run by two instances at once', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('seeds exactly once', async () => {
    const results = await Promise.all([seedIfEmpty(server.sql), seedIfEmpty(server.sql)])
    expect(results.sort()).toEqual([false, true])
    const [row] = await server.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM users`
    expect(row?.n).toBe(USERS.length)
  })
})
