import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { TOPIC_STATUSES } from '../../shared/constants.ts'
import { isPublicTopicStatus } from '../../shared/topic.ts'
import { startTestServer, type TestServer } from '../test/server.ts'

/**
 * The sync triggers (sql/0003_sync.sql) need one rule of shared/ inside
 * Postgres: which topic statuses everyone may see. The SQL function must
 * agree with the TypeScript rule for every status; this fails when one of
 * the two changes alone.
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
})
