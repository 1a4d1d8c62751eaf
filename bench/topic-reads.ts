import { performance } from 'node:perf_hooks'
import { promisify } from 'node:util'
import { Worker } from 'node:worker_threads'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Actor } from '../shared/decision.ts'
import { PUBLIC_TOPIC_STATUSES } from '../shared/topic.ts'
import { seedScale } from '../sync-server/demo/seed-scale.ts'
import { BROTLI_QUALITY, GZIP_LEVEL } from '../sync-server/http/compress.ts'
import { startTestServer, type TestServer } from '../sync-server/test/server.ts'
import { searchTopics } from '../sync-server/topics/search.ts'

// GET /api/topics at 1,000 visible topics (issue 15 goal 5, reads): through
// HTTP against the real server beside the same SQL (topics/search.ts) run
// directly on the same pool and serialised with JSON.stringify, one reader at
// a time and 50 at once; then what compression saves and costs.

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

/** Runs `a` and `b` in turns, BLOCKS times each: their runs joined. */
async function inTurns(a: () => Promise<Run>, b: () => Promise<Run>): Promise<[Run, Run]> {
  const runs: [Run[], Run[]] = [[], []]
  for (let i = 0; i < BLOCKS; i++) {
    runs[0].push(await a())
    runs[1].push(await b())
  }
  const join = (list: Run[]): Run => ({
    latencies: list.flatMap((r) => r.latencies).sort((x, y) => x - y),
    seconds: list.reduce((sum, r) => sum + r.seconds, 0),
    bytes: list[0]?.bytes ?? 0,
  })
  return [join(runs[0]), join(runs[1])]
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

/** The rows GET /api/topics answers a member, by the route's own SQL, serialised. */
async function rawList(server: TestServer, actor: Actor): Promise<string> {
  const page = await searchTopics(server.sql, actor, {
    filters: {},
    q: undefined,
    limit: undefined,
    after: undefined,
  })
  return JSON.stringify(page.topics)
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
    const [row] = await server.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM topics WHERE status = ANY(${statuses}::topic_status[])`
    console.log(`\nGET /api/topics at ${row?.n} visible topics (a member's list, no filters)`)

    const [plain, viaSql] = await inTurns(
      () => http('identity', 1, RUNS),
      () => raw(1, RUNS),
    )
    const ratio = at(plain.latencies, 0.5) / at(viaSql.latencies, 0.5)
    console.log(
      `  one reader: HTTP median ${ms(at(plain.latencies, 0.5))}, p95 ${ms(at(plain.latencies, 0.95))} | ` +
        `raw SQL + JSON.stringify median ${ms(at(viaSql.latencies, 0.5))}, p95 ${ms(at(viaSql.latencies, 0.95))} | ` +
        `ratio ${ratio.toFixed(2)}× (target ≤ ${TARGET.sequential}×: ${verdict(ratio <= TARGET.sequential)})`,
    )
    const [br, gz] = await inTurns(
      () => http('br', 1, RUNS),
      () => http('gzip', 1, RUNS),
    )
    console.log(
      `  one reader, compressed: brotli median ${ms(at(br.latencies, 0.5))}, gzip median ${ms(at(gz.latencies, 0.5))} (no target)`,
    )

    const [many, manyRaw] = await inTurns(
      () => http('identity', READERS, ROUNDS),
      () => raw(READERS, ROUNDS),
    )
    const throughput = perSecond(many) / perSecond(manyRaw)
    const p99 = at(many.latencies, 0.99) / at(manyRaw.latencies, 0.99)
    console.log(
      `  ${READERS} readers × ${ROUNDS * BLOCKS}: HTTP ${perSecond(many).toFixed(0)} req/s, p99 ${ms(at(many.latencies, 0.99))} | ` +
        `raw SQL ${perSecond(manyRaw).toFixed(0)} /s, p99 ${ms(at(manyRaw.latencies, 0.99))} | ` +
        `throughput ${throughput.toFixed(2)}× (target ≥ ${TARGET.throughput}×: ${verdict(throughput >= TARGET.throughput)}), ` +
        `p99 ${p99.toFixed(2)}× (target ≤ ${TARGET.p99}×: ${verdict(p99 <= TARGET.p99)})`,
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
    await compressionLevels(Buffer.from(await rawList(server, actor)))
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
