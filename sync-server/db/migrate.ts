import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Sql } from './connect.ts'

export const MIGRATIONS_DIR = join(import.meta.dirname, '..', '..', 'sql')

const MIGRATION_FILE = /^(\d{4})_[a-z0-9_]+\.sql$/

/**
 * Applies the forward-only migrations in `sql/` that have not run yet, in one
 * transaction under an advisory lock, so several instances starting together
 * apply each file once and a failing file leaves the schema as it was.
 * Returns the names it applied.
 */
export async function migrate(sql: Sql, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => MIGRATION_FILE.test(f)).sort()
  const applied: string[] = []
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(7312001)`
    await tx`
      CREATE TABLE IF NOT EXISTS schema_migrations (
        name text PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`
    const done = new Set(
      (await tx<{ name: string }[]>`SELECT name FROM schema_migrations`).map((r) => r.name),
    )
    for (const file of files) {
      if (done.has(file)) continue
      const text = await readFile(join(dir, file), 'utf8')
      await tx.savepoint(async (sp) => {
        await sp.unsafe(text)
        await sp`INSERT INTO schema_migrations (name) VALUES (${file})`
      })
      applied.push(file)
    }
  })
  return applied
}
