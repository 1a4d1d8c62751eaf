import { performance } from 'node:perf_hooks'
import { promisify } from 'node:util'
import { Worker } from 'node:worker_threads'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Actor } from '../shared/decision.ts'
import { PUBLIC_TOPIC_STATUSES } from '../shared/topic.ts'
import { seedScale } from '../sync-server/demo/seed-scale.ts'
import { BROTLI_QUALITY, GZIP_LEVEL } from '../sync-server/http/compress.ts'
import { startTestServer, type TestServer } from '../sync-server/test/server.ts'
import { listTopics } from '../sync-server/topics/queries.ts'
import { searchTopics } from '../sync-server/topics/search.ts'

// GET /api/topics at 1,000 visible topics (issue 15 goal 5, reads): through
// HTTP against the real server beside the same topics read by SQL run
// directly on the same pool and serialised (rows read as objects by
// postgres.js, then JSON.stringify: topics/queries.ts listTopics), one reader
// at a time and 50 at once. The route lets Postgres write the JSON
// (decision 0047); its own SQL run directly is printed beside, so what HTTP,
// the session and the ETag add shows too. Then what compression saves and
// costs.

const VISIBLE = 1_000
/** HTTP and raw SQL take turns, BLOCKS times each, so both see the same load on a shared machine. */
const BLOCKS = 5
const RUNS = 8
const READERS = 50
const ROUNDS = 3
const TARGET = { sequential: 1.2, throughput: 0.8, p99: 1.3 }

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

type Run = { latencies: number[]; seconds: number; bytes: number }

const at = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
const ms = (n: number) => `${n.toFixed(1)} ms`
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met')
const perSecond = (run: Run) => run.latencies.length / run.seconds

/** `readers` loops of `rounds` calls each, all at once, after one call each to warm up. */
async function inThisThread(run: () => Promise<unknown>, readers: number, rounds: number) {
  await Promise.all(Array.from({ length: readers }, () => run()))
  const latencies: number[] = []
  const start = performance.now()
  await Promise.all(
    Array.from({ length: readers }, async () => {
      for (let i = 0; i < rounds; i++) {
        const t = performance.now()
        await run()
        latencies.push(performance.now() - t)
      }
    }),
  )
  const seconds = (performance.now() - start) / 1000
  return { latencies: latencies.sort((a, b) => a - b), seconds, bytes: 0 }
}

type ClientTask = { url: string; cookie: string; encoding: string; readers: number; rounds: number }

/**
 * The HTTP readers run in a worker thread, as clients run elsewhere: reading
 * 600 KB answers on the server's own event loop would bill the client's work
 * to the server. The same loops as inThisThread, in plain JS (no TypeScript
 * loader in the worker), on node:http with keep-alive: a lean client, so the
 * two shared cores go to the server. `bytes` are the bytes on the wire.
 */
const CLIENT = `
const { parentPort, workerData: t } = require('node:worker_threads')
const { performance } = require('node:perf_hooks')
const http = require('node:http')
const agent = new http.Agent({ keepAlive: true, maxSockets: t.readers })
const headers = { cookie: t.cookie, 'accept-encoding': t.encoding }
const get = () => new Promise((resolve, reject) => {
  http.get(t.url, { agent, headers }, (res) => {
    if (res.statusCode !== 200) reject(new Error('GET /api/topics answered ' + res.statusCode))
    let received = 0
    res.on('data', (chunk) => { received += chunk.length })
    res.on('end', () => resolve(received))
  }).on('error', reject)
})
;(async () => {
  let bytes = 0
  await Promise.all(Array.from({ length: t.readers }, async () => { bytes = await get() }))
  const latencies = []
  const start = performance.now()
  await Promise.all(Array.from({ length: t.readers }, async () => {
    for (let i = 0; i < t.rounds; i++) {
      const s = performance.now()
      await get()
      latencies.push(performance.now() - s)
    }
  }))
  const seconds = (performance.now() - start) / 1000
  parentPort.postMessage({ latencies: latencies.sort((a, b) => a - b), seconds, bytes })
})()
`

/** Runs each of `runs` in turns, BLOCKS times each: each one's runs joined. */
async function inTurns(...runs: (() => Promise<Run>)[]): Promise<Run[]> {
  const results: Run[][] = runs.map(() => [])
  for (let i = 0; i < BLOCKS; i++) {
    for (const [n, run] of runs.entries()) results[n]?.push(await run())
  }
  const join = (list: Run[]): Run => ({
    latencies: list.flatMap((r) => r.latencies).sort((x, y) => x - y),
    seconds: list.reduce((sum, r) => sum + r.seconds, 0),
    bytes: list[0]?.bytes ?? 0,
  })
  return results.map(join)
}

function inWorker(task: ClientTask): Promise<Run> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CLIENT, { eval: true, workerData: task })
    worker.once('message', (run: Run) => {
      resolve(run)
      void worker.terminate()
    })
    worker.once('error', reject)
  })
}

/** What GET /api/topics answers a member, by the route's own SQL: the JSON as Postgres writes it. */
async function rawList(server: TestServer, actor: Actor): Promise<Buffer> {
  const page = await searchTopics(server.sql, actor, {
    filters: {},
    q: undefined,
    limit: undefined,
    after: undefined,
  })
  return page.json
}

/** The same topics as rows (postgres.js objects) serialised with JSON.stringify. */
async function rowsList(server: TestServer, actor: Actor): Promise<string> {
  return JSON.stringify(await listTopics(server.sql, actor))
}

export async function benchTopicReads(): Promise<void> {
  const server = await startTestServer()
  try {
    // ~1.6 topics per user, most of them public: trimmed to exactly VISIBLE public ones.
    await seedScale(server.sql, { users: 800 })
    const statuses = server.sql.array([...PUBLIC_TOPIC_STATUSES])
    await server.sql`
      DELETE FROM topics WHERE id IN (
        SELECT id FROM topics WHERE status = ANY(${statuses}::topic_status[])
        ORDER BY created_at DESC OFFSET ${VISIBLE})`
    await server.sql`ANALYZE`
    // A new member: sees exactly the public topics.
    const reader = await server.signIn('bench-topic-reader')
    const actor = { id: reader.user?.id ?? '', isAdmin: false }
    const http = (encoding: string, readers: number, rounds: number) =>
      inWorker({
        url: `${server.url}/api/topics`,
        cookie: reader.cookie ?? '',
        encoding,
        readers,
        rounds,
      })
    const raw = (readers: number, rounds: number) =>
      inThisThread(() => rawList(server, actor), readers, rounds)
    const rows = (readers: number, rounds: number) =>
      inThisThread(() => rowsList(server, actor), readers, rounds)
    const [row] = await server.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM topics WHERE status = ANY(${statuses}::topic_status[])`
    console.log(`\nGET /api/topics at ${row?.n} visible topics (a member's list, no filters)`)

    const [plain, viaRows, viaSql] = (await inTurns(
      () => http('identity', 1, RUNS),
      () => rows(1, RUNS),
      () => raw(1, RUNS),
    )) as [Run, Run, Run]
    const median = (run: Run) => at(run.latencies, 0.5)
    const ratio = median(plain) / median(viaRows)
    console.log(
      `  one reader: HTTP median ${ms(median(plain))}, p95 ${ms(at(plain.latencies, 0.95))} | ` +
        `SQL run directly + JSON.stringify median ${ms(median(viaRows))}, p95 ${ms(at(viaRows.latencies, 0.95))} | ` +
        `ratio ${ratio.toFixed(2)}× (target ≤ ${TARGET.sequential}×: ${verdict(ratio <= TARGET.sequential)})`,
    )
    console.log(
      `    beside: the route's own SQL (Postgres writes the JSON) run directly, median ${ms(median(viaSql))}: ` +
        `HTTP, the session and the ETag add ${ms(median(plain) - median(viaSql))} (${(median(plain) / median(viaSql)).toFixed(2)}×, no target)`,
    )
    const [br, gz] = (await inTurns(
      () => http('br', 1, RUNS),
      () => http('gzip', 1, RUNS),
    )) as [Run, Run]
    console.log(
      `  one reader, compressed: brotli median ${ms(at(br.latencies, 0.5))}, gzip median ${ms(at(gz.latencies, 0.5))} (no target)`,
    )

    const [many, manyRows, manyRaw] = (await inTurns(
      () => http('identity', READERS, ROUNDS),
      () => rows(READERS, ROUNDS),
      () => raw(READERS, ROUNDS),
    )) as [Run, Run, Run]
    const throughput = perSecond(many) / perSecond(manyRows)
    const p99 = at(many.latencies, 0.99) / at(manyRows.latencies, 0.99)
    console.log(
      `  ${READERS} readers × ${ROUNDS * BLOCKS}: HTTP ${perSecond(many).toFixed(0)} req/s, p99 ${ms(at(many.latencies, 0.99))} | ` +
        `SQL + JSON.stringify ${perSecond(manyRows).toFixed(0)} /s, p99 ${ms(at(manyRows.latencies, 0.99))} | ` +
        `throughput ${throughput.toFixed(2)}× (target ≥ ${TARGET.throughput}×: ${verdict(throughput >= TARGET.throughput)}), ` +
        `p99 ${p99.toFixed(2)}× (target ≤ ${TARGET.p99}×: ${verdict(p99 <= TARGET.p99)})`,
    )
    console.log(
      `    beside: the route's own SQL run directly ${perSecond(manyRaw).toFixed(0)} /s, p99 ${ms(at(manyRaw.latencies, 0.99))}: ` +
        `HTTP ${(perSecond(many) / perSecond(manyRaw)).toFixed(2)}× its throughput, p99 ${(at(many.latencies, 0.99) / at(manyRaw.latencies, 0.99)).toFixed(2)}× (no target)`,
    )
    const manyBr = await http('br', READERS, ROUNDS)
    console.log(
      `  ${READERS} readers, brotli: ${perSecond(manyBr).toFixed(0)} req/s, p99 ${ms(at(manyBr.latencies, 0.99))} (no target)`,
    )
    const percent = (n: number) => `${((100 * n) / plain.bytes).toFixed(1)} %`
    console.log(
      `  bytes on the wire: plain ${plain.bytes.toLocaleString('en')}, brotli ${br.bytes.toLocaleString('en')} ` +
        `(${percent(br.bytes)}), gzip ${gz.bytes.toLocaleString('en')} (${percent(gz.bytes)}) (target: smaller; no figure set)`,
    )
    await compressionLevels(await rawList(server, actor))
  } finally {
    await server.stop()
  }
}

/** Size and time of each level on the same body: the measurement behind the chosen levels. */
async function compressionLevels(body: Buffer): Promise<void> {
  console.log(
    `  compression levels on that body (${body.length.toLocaleString('en')} bytes), median of 10:`,
  )
  const levels: [string, () => Promise<Buffer>][] = []
  for (const level of [1, 5, 6, 9]) levels.push([`gzip ${level}`, () => gzipAsync(body, { level })])
  for (const quality of [1, 4, 5, 7]) {
    const params = {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    }
    levels.push([`brotli ${quality}`, () => brotli(body, { params })])
  }
  for (const [name, run] of levels) {
    const size = (await run()).length
    const t = await inThisThread(run, 1, 10)
    const chosen = name === `gzip ${GZIP_LEVEL}` || name === `brotli ${BROTLI_QUALITY}`
    console.log(
      `    ${name.padEnd(9)} ${size.toLocaleString('en').padStart(9)} bytes (${((100 * size) / body.length).toFixed(1)} %) ` +
        `${ms(at(t.latencies, 0.5))}${chosen ? '  ← used' : ''}`,
    )
  }
}
