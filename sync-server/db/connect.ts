import { mkdirSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import postgres from 'postgres'
import { sessionNotifier } from './session-notify.ts'

/** The one database handle the server uses: postgres.js, on a real server or on embedded PGlite. */
export type Sql = postgres.Sql
export type Db = Sql | postgres.TransactionSql

export type Database = {
  sql: Sql
  /** Where it runs, for the start-up log: never includes a password. */
  description: string
  close: () => Promise<void>
  /**
   * Runs `work` on a connection of its own without the answer timeout, for
   * migrations: one may run longer than any request should wait.
   */
  untimed: <T>(work: (sql: Sql) => Promise<T>) => Promise<T>
}

type OpenOptions = {
  databaseUrl?: string | undefined
  /** Directory for embedded data; `memory://` keeps it in memory. */
  dataDir: string
  poolSize: number
  /**
   * How long a connection that sent something may hear nothing back before it
   * is given up (PostgreSQL only); 0 or unset: no limit.
   */
  answerTimeoutMs?: number
}

const quietNotices = { onnotice: () => {} }

/** Seconds before reconnect attempt n (n ≥ 1 failed so far): 50 ms doubling, at most 0.5 s, with jitter. */
function reconnectDelaySeconds(failures: number): number {
  return Math.min(0.05 * 2 ** Math.max(0, failures - 1), 0.5) * (0.75 + Math.random() / 2)
}

/**
 * Opens the database. With a URL, connects to that server with a pool of
 * `poolSize`. Without one, starts PGlite and serves it on a loopback port
 * through pglite-socket, so the same driver and the same SQL run on both; the
 * embedded database gets one connection, on which requests take turns.
 *
 * @example
 * const db = await openDatabase({ dataDir: '.data', poolSize: 10 })
 * await db.sql`select 1`
 */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const databaseUrl = options.databaseUrl
    const common = {
      // A database that does not answer a connect within 5 s is treated as down (503), not
      // waited on for the driver's default 30 s while requests pile up.
      connect_timeout: 5,
      // The driver's default backoff grows to 20 s over repeated failed connects (shared by the
      // pool): after an outage of a few seconds the API would stay down for many more. Reconnect
      // within half a second instead; ten connections retrying that often cost the server nothing.
      backoff: reconnectDelaySeconds,
      ...quietNotices,
    }
    const sql = postgres(databaseUrl, {
      ...common,
      max: options.poolSize,
      // A failover can leave the old server silent instead of closed: a statement sent there
      // would wait until TCP gives up (~15 min). Give such a connection up instead (the request
      // answers 503) and open a new one. The LISTEN connection is timed the same way. An option
      // of our patch of postgres.js (decision 0021).
      ...({ answer_timeout: (options.answerTimeoutMs ?? 0) / 1000 || null } as object),
    })
    const url = new URL(databaseUrl)
    return {
      sql,
      description: `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`,
      close: () => sql.end({ timeout: 5 }),
      untimed: async (work) => {
        const own = postgres(databaseUrl, { ...common, max: 1 })
        try {
          return await work(own)
        } finally {
          await own.end({ timeout: 5 })
        }
      },
    }
  }
  const inMemory = options.dataDir.startsWith('memory://')
  if (!inMemory) mkdirSync(options.dataDir, { recursive: true })
  const pglite = await PGlite.create(inMemory ? undefined : options.dataDir)
  const server = new PGLiteSocketServer({
    db: pglite,
    host: '127.0.0.1',
    port: 0,
    maxConnections: 4,
  })
  await server.start()
  const [host, port] = server.getServerConn().split(':')
  // One connection: PGlite is a single database session, and pglite-socket
  // interleaves the protocol messages of concurrent connections (wrong answers,
  // "portal does not exist"). postgres.js queues queries on the one connection.
  // Its notifications arrive on this one connection (session-notify.ts).
  const notifier = sessionNotifier()
  // `onnotify` is postgres.js's own option (sql.listen uses it), missing from its types.
  const connection = {
    host,
    port: Number(port),
    user: 'postgres',
    database: 'postgres',
    max: 1,
    onnotify: notifier.onnotify,
    ...quietNotices,
  }
  const sql = postgres(connection)
  notifier.register(sql)
  return {
    sql,
    description: inMemory ? 'embedded PGlite (in memory)' : `embedded PGlite in ${options.dataDir}`,
    // In this process, on a loopback socket, never timed: it cannot go silent as a remote one can.
    untimed: (work) => work(sql),
    close: async () => {
      await sql.end({ timeout: 5 })
      await server.stop()
      await pglite.close()
    },
  }
}
