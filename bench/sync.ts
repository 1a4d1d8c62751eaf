import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import postgres from 'postgres'
import type { PullResponse, PushMutation, PushResponse } from '../shared/sync.ts'
import { COMPANY_USERS, type ScaleCounts, seedScale } from '../sync-server/demo/seed-scale.ts'
import { Client, startTestServer, type TestServer } from '../sync-server/test/server.ts'
import {
  buildServer,
  createDatabase,
  startServerProcess,
} from '../sync-server/test/server-process.ts'

// `npm run bench:sync`: the figures of the sync issue, on a fresh database
// (embedded PGlite, or a new database on DATABASE_URL's server), through HTTP.

const DELTA_RUNS = 25

async function main(): Promise<void> {
  const server = await startTestServer()
  try {
    const where = server.databaseUrl
      ? `PostgreSQL (${new URL(server.databaseUrl).host})`
      : 'embedded PGlite'
    console.log(`Sync benchmark on ${where}, through HTTP on ${server.url}\n`)
    const mentor = await server.signIn('bench-mentor')
    const admin = await server.signIn('bench-admin')
    await server.sql`UPDATE users SET is_admin = true WHERE id = ${admin.user?.id ?? ''}`

    await insertTopics(server, mentor, 100)
    const small = await deltaPull(server, mentor, await server.signIn('bench-reader-100'))

    await insertTopics(server, mentor, 9_900)
    const reader = await server.signIn('bench-reader')
    const first = await syncToEnd(reader, undefined)
    const large = await deltaPull(server, mentor, reader, first.cursor)

    const replay = await replayMutations(await server.signIn('bench-pusher'), 1_000)
    const deployed = await pushVsRestDeployed(server)
    const inProcess = await pushVsRest((name) => server.signIn(name))
    const crowd = await firstSyncCrowd(server)

    const rate = (n: number, ms: number) => Math.round((n / ms) * 1000).toLocaleString('en')
    console.log(
      `First sync of 10,000 topics: ${first.rows.toLocaleString('en')} rows in ${first.pages} pages, ` +
        `${(first.ms / 1000).toFixed(2)} s = ${rate(first.rows, first.ms)} rows/s`,
    )
    console.log(`Delta pull after one change (median of ${DELTA_RUNS}, ${small.rows} row each):`)
    console.log(`  100 topics in the database:    ${small.medianMs.toFixed(1)} ms`)
    console.log(`  10,000 topics in the database: ${large.medianMs.toFixed(1)} ms`)
    console.log(
      `Replay of 1,000 queued mutations (pushes of 100): ${(replay.ms / 1000).toFixed(2)} s = ` +
        `${rate(1_000, replay.ms)} mutations/s`,
    )
    console.log(
      `${CROWD} first syncs of 10,000 topics at once: ${crowd.done} complete, ${crowd.errors} errors ` +
        `(target: all complete, 0 errors), ${(crowd.ms / 1000).toFixed(1)} s for all, ` +
        `slowest ${(crowd.slowestMs / 1000).toFixed(1)} s, ${(crowd.bytes / 1e6).toFixed(0)} MB on the wire (compressed)`,
    )
    const perSecond = (n: number) => `${Math.round(n).toLocaleString('en')} mutations/s`
    const figures = (c: PushVsRest, targets: boolean) =>
      `  first round (cold server):  push ${perSecond(c.cold.pushRate)}, REST ${perSecond(c.cold.restRate)}\n` +
      `  sync push, batches of 100:  ${perSecond(c.pushRate)}${targets ? '   target >= 1,500/s' : ''}\n` +
      `  single REST calls:          ${perSecond(c.restRate)}\n` +
      `  push / REST:                ${(c.pushRate / c.restRate).toFixed(2)}x${targets ? '   target >= 2x' : ''}` +
      (c.writesPerMutation
        ? `\n  server's write calls per mutation (to PostgreSQL and clients): push ${c.writesPerMutation.push.toFixed(2)}, REST ${c.writesPerMutation.rest.toFixed(2)}`
        : '')
    console.log(
      `${CLIENTS} clients at once, ${MUTATIONS_PER_CLIENT} mutations each (${ROUNDS} rounds after a first one, side by side):`,
    )
    if (deployed) {
      console.log(
        ` the built server in a process of its own, as deployed (node build/server/main.js, its delivery worker running):\n${figures(deployed.small, true)}`,
      )
      const c = deployed.company
      console.log(
        ` the same on a database seeded at company scale (${c.counts?.users.toLocaleString('en') ?? '?'} users, ${c.admins ?? '?'} of them administrators, ${c.counts?.topics.toLocaleString('en') ?? '?'} topics), each topic proposed notifying every administrator:\n${figures(c, true)}`,
      )
    }
    console.log(
      ` the server inside this benchmark's process (the clients' work on the same thread; no delivery worker)${deployed ? ', for comparison' : ''}:\n${figures(inProcess, !deployed)}`,
    )
  } finally {
    await server.stop()
  }
}

/** Approved topics with a realistic description, written straight into the database. */
async function insertTopics(server: TestServer, mentor: Client, count: number): Promise<void> {
  const description = `<p>${'A topic description of a realistic length. '.repeat(12)}</p>`
  await server.sql`
    INSERT INTO topics (subject, description, max_mentees, seniority_required, location, interests,
                        status, mentor_id)
    SELECT 'Topic ' || g, ${description}, 2, '{junior,mid}', 'online', '{TypeScript,Postgres}',
           'approved', ${mentor.user?.id ?? ''}
    FROM generate_series(1, ${count}) AS g`
  await server.sql`ANALYZE`
}

async function pull(client: Client, cursor: string | undefined): Promise<PullResponse> {
  const res = await client.get(`/api/sync/pull${cursor ? `?cursor=${cursor}` : ''}`)
  if (res.status !== 200) throw new Error(`pull answered ${res.status}: ${res.text}`)
  return res.body as PullResponse
}

function rowsOf(page: PullResponse): number {
  return Object.values(page.changes).reduce(
    (n, rows) => n + (Array.isArray(rows) ? rows.length : 0),
    0,
  )
}

/** Pulls to the end from `cursor`: rows, pages, time and the last cursor. */
async function syncToEnd(client: Client, cursor: string | undefined) {
  const start = performance.now()
  let rows = 0
  let pages = 0
  let next = cursor
  for (;;) {
    const page = await pull(client, next)
    rows += rowsOf(page)
    pages += 1
    next = page.cursor
    if (!page.hasMore) break
  }
  return { rows, pages, cursor: next, ms: performance.now() - start }
}

/** The median time of a pull to the end after the mentor edits one topic, `DELTA_RUNS` times. */
async function deltaPull(server: TestServer, mentor: Client, reader: Client, from?: string) {
  let cursor = from ?? (await syncToEnd(reader, undefined)).cursor
  const [topic] = await server.sql<{ id: string }[]>`
    SELECT id FROM topics WHERE mentor_id = ${mentor.user?.id ?? ''} LIMIT 1`
  const times: number[] = []
  let rows = 0
  for (let i = 0; i < DELTA_RUNS; i++) {
    const res = await mentor.patch(`/api/topics/${topic?.id}`, {
      subject: `Edited ${i}`,
      maxMentees: 2,
      seniorityRequired: ['junior'],
    })
    if (res.status !== 200) throw new Error(`edit answered ${res.status}`)
    const delta = await syncToEnd(reader, cursor)
    cursor = delta.cursor
    rows = delta.rows
    times.push(delta.ms)
  }
  times.sort((a, b) => a - b)
  return { medianMs: times[Math.floor(times.length / 2)] ?? 0, rows }
}

const CROWD = 200

/**
 * `CROWD` people opening the app for the first time at 9:00: each pulls every
 * page from the beginning, all at once, as the browser would (compressed).
 * Counts the syncs that complete and the requests that fail.
 */
async function firstSyncCrowd(server: TestServer) {
  const people = await Promise.all(
    Array.from({ length: CROWD }, (_, i) => server.signIn(`bench-nine-${i}`)),
  )
  let errors = 0
  let done = 0
  let bytes = 0
  let slowestMs = 0
  const start = performance.now()
  await Promise.all(
    people.map(async (person) => {
      const began = performance.now()
      let cursor: string | undefined
      for (;;) {
        const res = await fetch(`${server.url}/api/sync/pull${cursor ? `?cursor=${cursor}` : ''}`, {
          headers: { cookie: person.cookie ?? '', 'accept-encoding': 'br, gzip' },
        }).catch(() => null)
        if (res?.status !== 200) {
          errors += 1
          await res?.body?.cancel()
          return
        }
        bytes += Number(res.headers.get('content-length') ?? 0)
        const page = (await res.json()) as PullResponse
        cursor = page.cursor
        if (!page.hasMore) break
      }
      done += 1
      slowestMs = Math.max(slowestMs, performance.now() - began)
    }),
  )
  return { done, errors, bytes, slowestMs, ms: performance.now() - start }
}

type Rates = { pushRate: number; restRate: number }
type PushVsRest = Rates & {
  cold: Rates
  /** The server process's write system calls (to PostgreSQL and to its clients) per mutation. */
  writesPerMutation?: { push: number; rest: number }
}

/** Write system calls `pid` made so far (Linux's /proc), or undefined where it cannot be read. */
function writeCalls(pid: number | undefined): number | undefined {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8')
    return Number(/^syscw: (\d+)$/m.exec(io)?.[1] ?? Number.NaN) || undefined
  } catch {
    return undefined
  }
}

/**
 * pushVsRest against the server as production runs it: bundled, under plain
 * node, in a process of its own (with its delivery worker), on the
 * benchmark's database. In this process the load generator's 20 clients
 * (building and parsing the batches) would share the server's one thread.
 * Undefined on embedded PGlite, whose database no other process can open.
 */
async function pushVsRestDeployed(server: TestServer): Promise<Deployed | undefined> {
  if (!server.databaseUrl) return undefined
  const built = await buildServer()
  try {
    const small = await pushVsRestOn(built.entry, server.databaseUrl)
    // The same on a company's people: every topic proposed notifies each administrator, and
    // what scales with the users (finding the administrators, their digest marks) shows.
    const company = await createDatabase(server.databaseUrl)
    try {
      let counts: ScaleCounts | undefined
      let admins: number | undefined
      const rates = await pushVsRestOn(built.entry, company.url, async () => {
        const sql = postgres(company.url, { max: 1, onnotice: () => {} })
        try {
          counts = await seedScale(sql, { users: COMPANY_USERS })
          await sql`ANALYZE`
          const [row] = await sql<{ admins: number }[]>`
            SELECT count(*)::int AS admins FROM users WHERE is_admin`
          admins = row?.admins
        } finally {
          await sql.end()
        }
      })
      return { small, company: { ...rates, counts, admins } }
    } finally {
      await company.drop()
    }
  } finally {
    await built.remove()
  }
}

type Deployed = {
  small: PushVsRest
  company: PushVsRest & { admins?: number; counts?: ScaleCounts }
}

/**
 * pushVsRest against the built server in a process of its own on `databaseUrl`;
 * `prepare` runs once it has migrated the database, before anyone signs in.
 */
async function pushVsRestOn(
  entry: string,
  databaseUrl: string,
  prepare?: () => Promise<void>,
): Promise<PushVsRest> {
  const child = await startServerProcess(entry, { DATABASE_URL: databaseUrl })
  let rates: PushVsRest
  try {
    await prepare?.()
    rates = await pushVsRest(
      async (name) => {
        const client = new Client(child.url)
        const res = await client.post('/api/auth/dev-login', { userId: name })
        if (res.status !== 200) throw new Error(`dev-login as ${name} failed: ${res.status}`)
        client.user = res.body as Client['user']
        return client
      },
      () => writeCalls(child.child.pid),
    )
  } finally {
    child.child.kill('SIGTERM')
    await child.exited
  }
  const { code, signal } = await child.exited
  if (code !== 0) throw new Error(`The server exited ${code ?? signal}:\n${child.output()}`)
  return rates
}

const CLIENTS = 20
const MUTATIONS_PER_CLIENT = 200
const ROUNDS = 4

/**
 * `CLIENTS` people sending their queued work at once, by sync push (batches of
 * 100) and the same kind of mutations as single REST calls with an
 * Idempotency-Key, alternating, `ROUNDS` times each after a first round
 * measured apart: mutations per second.
 */
async function pushVsRest(
  signIn: (name: string) => Promise<Client>,
  writes?: () => number | undefined,
): Promise<PushVsRest> {
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, (_, i) => signIn(`bench-crowd-${i}`)),
  )
  let pushMs = 0
  let restMs = 0
  let pushWrites = 0
  let restWrites = 0
  let cold = { pushRate: 0, restRate: 0 }
  const perRound = CLIENTS * MUTATIONS_PER_CLIENT
  // Round 0 is the server's first load of this kind: its code not yet optimised, and each of
  // the pool's connections preparing its statements. It is printed apart; the target is the
  // rounds after it, a server that has been up (as at 9:00 on a working day).
  for (let round = 0; round <= ROUNDS; round++) {
    let writesBefore = writes?.() ?? 0
    let start = performance.now()
    await Promise.all(
      clients.map(async (client) => {
        const queue = offlineQueue(MUTATIONS_PER_CLIENT, `Push ${round}`)
        for (let i = 0; i < queue.length; i += 100) {
          const res = await client.post('/api/sync/push', {
            clientId: 'bench',
            mutations: queue.slice(i, i + 100),
          })
          const failed = (res.body as PushResponse).results?.filter((r) => r.status >= 300)
          if (res.status !== 200 || failed?.length) {
            throw new Error(`push failed: ${res.text.slice(0, 300)}`)
          }
        }
      }),
    )
    pushMs += performance.now() - start
    pushWrites += (writes?.() ?? 0) - writesBefore
    writesBefore = writes?.() ?? 0
    start = performance.now()
    await Promise.all(
      clients.map(async (client) => {
        for (const m of offlineQueue(MUTATIONS_PER_CLIENT, `REST ${round}`)) {
          const res = await client.request(m.method, m.path, m.body, {
            headers: { 'idempotency-key': m.id },
          })
          if (res.status >= 300) throw new Error(`REST ${m.method} answered ${res.status}`)
        }
      }),
    )
    restMs += performance.now() - start
    restWrites += (writes?.() ?? 0) - writesBefore
    if (round === 0) {
      cold = { pushRate: (perRound / pushMs) * 1000, restRate: (perRound / restMs) * 1000 }
      pushMs = 0
      restMs = 0
      pushWrites = 0
      restWrites = 0
    }
  }
  const total = perRound * ROUNDS
  return {
    pushRate: (total / pushMs) * 1000,
    restRate: (total / restMs) * 1000,
    cold,
    writesPerMutation:
      writes?.() === undefined ? undefined : { push: pushWrites / total, rest: restWrites / total },
  }
}

/** `count` mutations an offline mentor made: topics created, then edited. */
function offlineQueue(count: number, label: string): PushMutation[] {
  const queue: PushMutation[] = []
  for (let i = 0; queue.length < count; i++) {
    const id = randomUUID()
    const topic = { subject: `${label} ${i}`, maxMentees: 1, seniorityRequired: ['mid'] }
    queue.push({ id: randomUUID(), method: 'POST', path: '/api/topics', body: { ...topic, id } })
    queue.push({
      id: randomUUID(),
      method: 'PATCH',
      path: `/api/topics/${id}`,
      body: { ...topic, subject: `${label} ${i}, edited` },
    })
  }
  return queue
}

/** A queue of `count` mutations an offline mentor made: topics created, then edited. */
async function replayMutations(pusher: Client, count: number) {
  const queue: PushMutation[] = []
  for (let i = 0; queue.length < count; i++) {
    const id = randomUUID()
    const topic = { subject: `Offline ${i}`, maxMentees: 1, seniorityRequired: ['mid'] }
    queue.push({ id: randomUUID(), method: 'POST', path: '/api/topics', body: { ...topic, id } })
    queue.push({
      id: randomUUID(),
      method: 'PATCH',
      path: `/api/topics/${id}`,
      body: { ...topic, subject: `Offline ${i}, edited` },
    })
  }
  const start = performance.now()
  for (let i = 0; i < queue.length; i += 100) {
    const res = await pusher.post('/api/sync/push', {
      clientId: 'bench',
      mutations: queue.slice(i, i + 100),
    })
    const failed = (res.body as PushResponse).results.filter((r) => r.status >= 300)
    if (res.status !== 200 || failed.length > 0)
      throw new Error(`push failed: ${res.text.slice(0, 300)}`)
  }
  return { ms: performance.now() - start }
}

await main()
