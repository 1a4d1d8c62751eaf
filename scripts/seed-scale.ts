/**
 * `npm run seed:scale -- --size company` (or `--size N` people; topics are 2N and
 * applications 4N): loads a generated programme history into an empty database,
 * the one DATABASE_URL names (or the embedded one in DATA_DIR), after migrating it.
 * `--seed S` picks another deterministic history.
 */
import { parseArgs } from 'node:util'
import { loadConfig } from '../sync-server/config.ts'
import { openDatabase } from '../sync-server/db/connect.ts'
import { migrate } from '../sync-server/db/migrate.ts'
import { COMPANY_USERS, seedScale } from '../sync-server/demo/seed-scale.ts'

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: 'company' },
    seed: { type: 'string', default: '19' },
  },
})
const users = values.size === 'company' ? COMPANY_USERS : Number(values.size)
const seed = Number(values.seed)
if (!Number.isInteger(users) || users < 10 || users > 1_000_000) {
  console.error(
    `--size must be "company" or a whole number of people from 10 to 1000000, not "${values.size}".`,
  )
  process.exit(2)
}
if (!Number.isInteger(seed)) {
  console.error(`--seed must be a whole number, not "${values.seed}".`)
  process.exit(2)
}
const config = loadConfig()
const db = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  poolSize: 2,
})
try {
  await migrate(db.sql)
  const started = performance.now()
  const counts = await seedScale(db.sql, { users, seed })
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(
    `Seeded ${db.description} in ${seconds} s: ${counts.users} users, ${counts.topics} topics, ` +
      `${counts.applications} applications, ${counts.feedback} feedback, ` +
      `${counts.notifications} notifications for "admin".`,
  )
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
} finally {
  await db.close()
}
