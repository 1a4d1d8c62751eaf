import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IDEMPOTENCY_KEY_RETENTION_DAYS } from '../shared/sync.ts'
import { sweepSyncHistory } from './housekeeping.ts'
import { REMOVAL_RETENTION_DAYS } from './sync/pull.ts'
import { startTestServer, type TestServer } from './test/server.ts'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server?.stop())

/** Makes rows of `table` matching `where` look `days` days old. */
async function age(
  table: 'idempotency_keys' | 'sync_removals',
  column: string,
  value: string,
  days: number,
) {
  await server.sql`
    UPDATE ${server.sql(table)} SET created_at = now() - make_interval(days => ${days})
    WHERE ${server.sql(column)} = ${value}`
}

describe('sweepSyncHistory', () => {
  it('forgets Idempotency-Key answers only once a client offline that long must not replay', async () => {
    const me = await server.signIn('keeper')
    const keys = { fresh: randomUUID(), old: randomUUID(), expired: randomUUID() }
    for (const key of Object.values(keys)) {
      const res = await me.patch(
        `/api/users/${me.user?.username}`,
        { bio: key },
        {
          headers: { 'idempotency-key': key },
        },
      )
      expect(res.status).toBe(200)
    }
    await age('idempotency_keys', 'key', keys.old, IDEMPOTENCY_KEY_RETENTION_DAYS - 1)
    await age('idempotency_keys', 'key', keys.expired, IDEMPOTENCY_KEY_RETENTION_DAYS + 1)

    expect(await sweepSyncHistory(server.sql)).toEqual({ idempotencyKeys: 1, syncRemovals: 0 })

    const replay = (key: string) =>
      me.patch(
        `/api/users/${me.user?.username}`,
        { bio: key },
        { headers: { 'idempotency-key': key } },
      )
    expect((await replay(keys.fresh)).headers.get('idempotent-replayed')).toBe('true')
    expect((await replay(keys.old)).headers.get('idempotent-replayed')).toBe('true')
    // Swept: the same key now applies again.
    expect((await replay(keys.expired)).headers.get('idempotent-replayed')).toBeNull()
    expect(await sweepSyncHistory(server.sql)).toEqual({ idempotencyKeys: 0, syncRemovals: 0 })
  })

  it('forgets removal entries older than a cursor may be', async () => {
    const leavers = [await server.signIn('leaver-1'), await server.signIn('leaver-2')]
    for (const leaver of leavers) {
      await server.sql`DELETE FROM users WHERE id = ${leaver.user?.id ?? ''}`
    }
    // Each deletion logged the user and, cascaded, their preferences.
    await age('sync_removals', 'row_id', leavers[0]?.user?.id ?? '', REMOVAL_RETENTION_DAYS + 1)
    expect(await sweepSyncHistory(server.sql)).toEqual({ idempotencyKeys: 0, syncRemovals: 2 })
    const left = await server.sql<{ rowId: string }[]>`
      SELECT row_id AS "rowId" FROM sync_removals WHERE tbl = 'users'`
    expect(left.map((r) => r.rowId)).toEqual([leavers[1]?.user?.id])
  })
})
