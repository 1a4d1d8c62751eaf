import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from './connect.ts'

// The embedded database under concurrent use, as many requests at once make it:
// every query gets its own answer and transactions stay apart.
describe('embedded PGlite under concurrent queries', () => {
  let db: Database

  beforeAll(async () => {
    db = await openDatabase({ dataDir: 'memory://', poolSize: 10 })
    await db.sql`CREATE TABLE t (id int PRIMARY KEY, owner int NOT NULL)`
  })
  afterAll(async () => {
    await db?.close()
  })

  it('answers 300 parallel parameterised queries each with its own result', async () => {
    const answers = await Promise.all(
      Array.from({ length: 300 }, async (_, i) => {
        const [row] = await db.sql<{ n: number; s: string }[]>`
          SELECT ${i}::int AS n, repeat('x', ${i % 7}) AS s`
        return row
      }),
    )
    answers.forEach((row, i) => {
      expect(row).toEqual({ n: i, s: 'x'.repeat(i % 7) })
    })
  })

  it('keeps parallel transactions apart: each sees and commits only its own rows', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, owner) =>
        db.sql.begin(async (tx) => {
          for (let k = 0; k < 5; k++) {
            await tx`INSERT INTO t (id, owner) VALUES (${owner * 100 + k}, ${owner})`
          }
          const [mine] = await tx<{ n: number }[]>`
            SELECT count(*)::int AS n FROM t WHERE owner = ${owner}`
          expect(mine?.n).toBe(5)
        }),
      ),
    )
    const [all] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM t`
    expect(all?.n).toBe(100)
  })

  it('rolls back a failed transaction without disturbing the ones beside it', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        db.sql.begin(async (tx) => {
          await tx`INSERT INTO t (id, owner) VALUES (${10_000 + i}, 99)`
          if (i % 2 === 1) throw new Error('undo')
        }),
      ),
    )
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(5)
    const rows = await db.sql<{ id: number }[]>`SELECT id FROM t WHERE owner = 99 ORDER BY id`
    expect(rows.map((r) => r.id)).toEqual([10_000, 10_002, 10_004, 10_006, 10_008])
  })
})
