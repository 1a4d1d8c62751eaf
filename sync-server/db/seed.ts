import type { Sql } from './connect.ts'

/** Temporary: replaced by the demo data seeder. */
export async function seedIfEmpty(_sql: Sql): Promise<boolean> {
  return false
}
