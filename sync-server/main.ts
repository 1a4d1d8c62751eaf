import { serve } from '@hono/node-server'
import { createApp } from './app.ts'
import { loadConfig } from './config.ts'
import { openDatabase } from './db/connect.ts'
import { migrate } from './db/migrate.ts'
import { startDeliveryWorker } from './delivery/worker.ts'
import { seedIfEmpty } from './demo/seed.ts'
import { startHousekeeping } from './housekeeping.ts'
import { keepConnectionsAlive } from './http/keep-alive.ts'
import { Lifecycle } from './http/lifecycle.ts'
import { vapidKeys } from './push/vapid.ts'
import { startReminders } from './reminders/run.ts'
import { shutDown } from './shutdown.ts'

// `npm start`: configuration, database, migrations, demo data, then the HTTP server.
let config: ReturnType<typeof loadConfig>
try {
  config = loadConfig()
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
}

const db = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  poolSize: config.DATABASE_POOL_SIZE,
  answerTimeoutMs: config.DATABASE_ANSWER_TIMEOUT_MS,
})
const applied = await db.untimed(migrate)
if (applied.length) console.log(`Applied migrations: ${applied.join(', ')}`)
if (config.SEED && (await seedIfEmpty(db.sql)))
  console.log('Loaded the demo data into the empty database.')

// Generated and stored on the first start when VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY are not set.
await vapidKeys(db.sql, config)
if (!config.SMTP_URL) console.log('SMTP_URL is not set: e-mail notifications are logged, not sent.')

const lifecycle = new Lifecycle()
const app = createApp({ sql: db.sql, config }, { lifecycle })
const stopHousekeeping = startHousekeeping(db.sql)
const deliveryWorker = startDeliveryWorker(db.sql, config)
// Every instance runs the reminders; each is recorded once, so it goes out once (decision 0039).
const reminders = startReminders(db.sql)
const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
  console.log(`Pairwise is listening on http://localhost:${info.port} (${db.description})`)
})
keepConnectionsAlive(server)

let stopping = false
async function stop(signal: string): Promise<void> {
  if (stopping) return
  stopping = true
  console.log(`${signal} received: draining for ${config.SHUTDOWN_DRAIN_MS} ms, then stopping.`)
  await shutDown({
    server,
    lifecycle,
    drainMs: config.SHUTDOWN_DRAIN_MS,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    stopWorkers: async () => {
      stopHousekeeping()
      // A reminder run in progress finishes its transaction; the next run sends the rest.
      const remindersStopped = reminders.stop()
      // Sends in flight finish; what is still queued goes out from another instance or after the restart.
      await deliveryWorker.stop()
      await remindersStopped
    },
    closeDatabase: db.close,
    log: (line) => console.log(line),
  })
  console.log('Stopped.')
  process.exit(0)
}
process.on('SIGTERM', () => void stop('SIGTERM'))
process.on('SIGINT', () => void stop('SIGINT'))
