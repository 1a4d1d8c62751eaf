import { loadConfig } from '../config.ts'
import { openDatabase } from './connect.ts'
import { migrate } from './migrate.ts'

// `npm run migrate`: applies pending migrations to the configured database and exits.
const config = loadConfig()
const db = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  poolSize: 2,
})
try {
  const applied = await migrate(db.sql)
  console.log(
    applied.length
      ? `Applied ${applied.length} migration(s) to ${db.description}: ${applied.join(', ')}`
      : `${db.description} is up to date.`,
  )
} finally {
  await db.close()
}
