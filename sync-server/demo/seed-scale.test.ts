import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { approvedTopic, signInAdmin } from '../test/api.ts'
import { startTestServer, type TestServer } from '../test/server.ts'
import { seedScale } from './seed-scale.ts'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.stop()
})

describe('seedScale', () => {
  it('writes N people, 2N topics and 4N applications that keep every rule of the schema', async () => {
    const counts = await seedScale(server.sql, { users: 100, seed: 7 })
    expect(counts).toMatchObject({ users: 100, topics: 200, applications: 400 })
    const [row] = await server.sql<
      { users: number; topics: number; apps: number; wrongCounts: number; early: number }[]
    >`
      SELECT (SELECT count(*)::int FROM users) AS users,
             (SELECT count(*)::int FROM topics) AS topics,
             (SELECT count(*)::int FROM applications) AS apps,
             (SELECT count(*)::int FROM topics t WHERE current_mentees <>
                (SELECT count(*) FROM applications a WHERE a.topic_id = t.id AND a.status = 'accepted'))
               AS "wrongCounts",
             (SELECT count(*)::int FROM applications a JOIN topics t ON t.id = a.topic_id
               WHERE a.created_at < t.reviewed_at OR a.decided_at < a.created_at) AS early`
    expect(row).toEqual({ users: 100, topics: 200, apps: 400, wrongCounts: 0, early: 0 })
    const statuses = await server.sql<
      { status: string }[]
    >`SELECT DISTINCT status::text FROM topics`
    expect(statuses.map((s) => s.status).sort()).toContain('concluded')
  })

  it('gives people matching profiles and the derived columns the trigger would have given', async () => {
    const [row] = await server.sql<
      {
        looking: number
        lookingMentors: number
        mentors: number
        locations: number
        wrongHasMentor: number
        wrongDays: number
        withDays: number
      }[]
    >`
      SELECT (SELECT count(*)::int FROM users WHERE looking_for_mentor) AS looking,
             (SELECT count(*)::int FROM users u WHERE looking_for_mentor
                AND EXISTS (SELECT 1 FROM topics t WHERE t.mentor_id = u.id)) AS "lookingMentors",
             (SELECT count(DISTINCT mentor_id)::int FROM topics) AS mentors,
             (SELECT count(DISTINCT coalesce(preferred_location::text, '-'))::int FROM users) AS locations,
             (SELECT count(*)::int FROM users u WHERE has_mentor <> EXISTS (
                SELECT 1 FROM applications a WHERE a.mentee_id = u.id AND a.status = 'accepted'))
               AS "wrongHasMentor",
             (SELECT count(*)::int FROM users u
               WHERE answers_within_days IS DISTINCT FROM mentor_answers_within_days(u.id)) AS "wrongDays",
             (SELECT count(*)::int FROM users WHERE answers_within_days IS NOT NULL) AS "withDays"`
    expect(row?.looking).toBeGreaterThanOrEqual(30)
    expect(row?.looking).toBeLessThanOrEqual(50)
    // Mostly people who offer no topic.
    expect(row?.lookingMentors).toBeLessThan((row?.looking ?? 0) / 2)
    expect(row?.locations).toBe(4)
    expect(row?.wrongHasMentor).toBe(0)
    expect(row?.wrongDays).toBe(0)
    expect(row?.withDays).toBeGreaterThan(0)
  })

  it('refuses a database that already has users', async () => {
    await expect(seedScale(server.sql, { users: 20 })).rejects.toThrow(/empty/)
  })
})

describe('lifecycle times (migration 0006)', () => {
  it('stamps when a topic was reviewed and when an application was decided, through the REST routes', async () => {
    const admin = await signInAdmin(server)
    const mentor = await server.signIn('times-mentor')
    const mentee = await server.signIn('times-mentee')
    const topic = await approvedTopic(admin, mentor)
    const applied = await mentee.post(`/api/topics/${topic.id}/apply`, {})
    expect(applied.status, applied.text).toBe(201)
    const [before] =
      await server.sql`SELECT decided_at FROM applications WHERE id = ${applied.body.id}`
    expect(before?.decided_at).toBeNull()
    const accepted = await mentor.patch(`/api/applications/${applied.body.id}`, {
      status: 'accepted',
    })
    expect(accepted.status, accepted.text).toBe(200)
    const [times] = await server.sql`
      SELECT t.submitted_at, t.reviewed_at, a.decided_at
      FROM topics t JOIN applications a ON a.topic_id = t.id WHERE a.id = ${applied.body.id}`
    expect(times?.reviewed_at.getTime()).toBeGreaterThanOrEqual(times?.submitted_at.getTime())
    expect(times?.decided_at).toBeInstanceOf(Date)
  })
})
