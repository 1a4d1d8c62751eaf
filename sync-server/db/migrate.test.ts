import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestServer, type TestServer } from '../test/server.ts'
import { MIGRATIONS_DIR, migrate } from './migrate.ts'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.stop())

describe('migrate', () => {
  test('has applied every file in sql/ and does nothing the second time', async () => {
    const rows = await server.sql<
      { name: string }[]
    >`SELECT name FROM schema_migrations ORDER BY name`
    expect(rows.map((r) => r.name)).toContain('0001_core.sql')
    expect(await migrate(server.sql, MIGRATIONS_DIR)).toEqual([])
  })

  test('applies new files once even when two instances migrate at the same time', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pairwise-migrations-'))
    await writeFile(join(dir, '0001_a.sql'), 'CREATE TABLE migrate_probe (n int);')
    await writeFile(join(dir, '0002_b.sql'), 'INSERT INTO migrate_probe VALUES (1);')
    const [first, second] = await Promise.all([migrate(server.sql, dir), migrate(server.sql, dir)])
    expect([...(first ?? []), ...(second ?? [])].sort()).toEqual(['0001_a.sql', '0002_b.sql'])
    const [count] = await server.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM migrate_probe`
    expect(count?.n).toBe(1)
  })

  test('a failing file leaves the schema as it was', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pairwise-migrations-'))
    await writeFile(join(dir, '0001_ok.sql'), 'CREATE TABLE migrate_half (n int);')
    await writeFile(join(dir, '0002_bad.sql'), 'CREATE TABLE migrate_half (n int);')
    await expect(migrate(server.sql, dir)).rejects.toThrow(/already exists/)
    const [table] = await server.sql`SELECT to_regclass('migrate_half') AS t`
    expect(table?.t).toBeNull()
  })

  test('the database enforces the programme rules the schema can carry', async () => {
    const [user] = await server.sql<{ id: string }[]>`
      INSERT INTO users (username) VALUES ('schema.probe') RETURNING id`
    const mentorId = user?.id
    const insertTopic = (max: number, current: number, seniority: string) => server.sql`
      INSERT INTO topics (subject, max_mentees, current_mentees, seniority_required, mentor_id)
      VALUES ('Probe', ${max}, ${current}, ${seniority}::seniority[], ${mentorId ?? null})`
    await expect(insertTopic(3, 0, '{junior}')).rejects.toThrow(/check constraint/)
    await expect(insertTopic(1, 2, '{junior}')).rejects.toThrow(/topics_mentees_within_max/)
    await expect(insertTopic(1, 0, '{}')).rejects.toThrow(/check constraint/)
    await expect(insertTopic(1, 0, '{expert}')).rejects.toThrow(/invalid input value for enum/)
    await expect(server.sql`INSERT INTO users (username) VALUES ('Schema.Probe')`).rejects.toThrow(
      /users_username_lower_key/,
    )
  })
})
