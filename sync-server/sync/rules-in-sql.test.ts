import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { canViewApplication } from '../../shared/application.ts'
import { TOPIC_STATUSES } from '../../shared/constants.ts'
import type { Actor } from '../../shared/decision.ts'
import { isPublicTopicStatus } from '../../shared/topic.ts'
import { approvedTopic, signInAdmin } from '../test/api.ts'
import { startTestServer, type TestServer } from '../test/server.ts'
import { applicationVisibleTo } from './tables.ts'

/**
 * Where SQL needs a rule of shared/ (a trigger of sql/0003_sync.sql, the
 * WHERE clause a pull reads through), it must agree with the TypeScript rule
 * for every case; these fail when one of the two changes alone.
 */
let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.stop())

describe('rules the SQL takes from shared/', () => {
  test.each(TOPIC_STATUSES)(
    'sync_topic_is_public(%s) agrees with isPublicTopicStatus',
    async (status) => {
      const [row] = await server.sql<{ public: boolean }[]>`
      SELECT sync_topic_is_public(${status}::topic_status) AS public`
      expect(row?.public).toBe(isPublicTopicStatus(status))
    },
  )

  test('applicationVisibleTo (pull) agrees with canViewApplication for every kind of viewer', async () => {
    const admin = await signInAdmin(server)
    const mentor = await server.signIn('rules-mentor')
    const mentee = await server.signIn('rules-mentee')
    const stranger = await server.signIn('rules-stranger')
    const topic = await approvedTopic(admin, mentor)
    const applied = await mentee.post(`/api/topics/${topic.id}/apply`, {})
    expect(applied.status, applied.text).toBe(201)
    const application = { menteeId: mentee.user?.id ?? '', mentorId: mentor.user?.id ?? '' }
    const viewers: Actor[] = [admin, mentor, mentee, stranger].map((c) => ({
      id: c.user?.id ?? '',
      isAdmin: c === admin,
    }))
    const sql = server.sql
    for (const viewer of viewers) {
      const rows = await sql`
        SELECT a.id FROM applications a JOIN topics t ON t.id = a.topic_id
        WHERE a.topic_id = ${topic.id} AND ${applicationVisibleTo(sql, viewer)}`
      expect(rows.length === 1, `viewer ${viewer.id}`).toBe(canViewApplication(viewer, application))
    }
    // The four viewers cover both answers of the rule.
    expect(viewers.map((v) => canViewApplication(v, application))).toEqual([
      true,
      true,
      true,
      false,
    ])
  })
})
