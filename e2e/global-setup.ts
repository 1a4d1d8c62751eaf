import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import postgres from 'postgres'
import type { TestProject } from 'vitest/node'
import { chromiumPath } from './chromium.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the server under test listens, e.g. http://127.0.0.1:41234 (no trailing slash). */
    baseUrl: string
    /** The built PWA the server serves (read per request, so a test can serve a changed file). */
    staticDir: string
    /** The database the server under test uses, when it is PostgreSQL (null on embedded PGlite). */
    databaseUrl: string | null
  }
}

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const START_TIMEOUT_MS = 120_000
const STOP_TIMEOUT_MS = 15_000

/**
 * Vitest globalSetup of the `e2e` project: builds the PWA once, then starts the
 * real server (as `npm start` does after building) on a free loopback port over
 * a database of its own, seeded with the demo data. Tests read the address with
 * `inject('baseUrl')`. The returned teardown stops the server and drops the data.
 *
 * With DATABASE_URL set, a fresh database is created on that PostgreSQL server;
 * without it the server runs embedded PGlite in a fresh temporary DATA_DIR.
 * E2E_SKIP_BUILD=1 reuses an existing dist/ (quicker while iterating).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const chromium = chromiumPath()
  if (!existsSync(chromium)) {
    throw new Error(
      `The browser tests need Chromium at ${chromium}, which does not exist. ` +
        'Install it with `apt-get install -y chromium` (Debian/Ubuntu; sudo if not root), ' +
        'or set CHROMIUM_PATH to a Chromium binary.',
    )
  }

  const t0 = performance.now()
  // Each run builds into a directory of its own, so runs side by side (and `npm start`) never
  // see each other's half-written builds.
  let staticDir = join(ROOT, 'dist')
  let buildDir: string | null = null
  if (process.env.E2E_SKIP_BUILD === '1' && existsSync(join(staticDir, 'index.html'))) {
    log('using the existing dist/ (E2E_SKIP_BUILD=1)')
  } else {
    buildDir = await mkdtemp(join(tmpdir(), 'pairwise-e2e-build-'))
    staticDir = buildDir
    await run(
      join(ROOT, 'node_modules', '.bin', 'vite'),
      ['build', '--outDir', buildDir, '--emptyOutDir'],
      'vite build',
    )
    log(`built the PWA in ${seconds(t0)}`)
  }

  const t1 = performance.now()
  const database = await freshDatabase()
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const output = new OutputTail()
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    NODE_ENV: 'development',
    SEED: 'true',
    STATIC_DIR: staticDir,
    // Browser tests sign in far more often than a person does; a test of the limit itself
    // can start a server of its own.
    AUTH_RATE_LIMIT: process.env.AUTH_RATE_LIMIT || '10000',
  }
  delete env.DATABASE_URL
  delete env.DATA_DIR
  Object.assign(env, database.env)

  const child = spawn(process.execPath, ['--import', 'tsx', 'sync-server/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let ready = false
  child.stdout?.on('data', (chunk: Buffer) => output.add(chunk))
  child.stderr?.on('data', (chunk: Buffer) => {
    output.add(chunk)
    // Once running, the server's errors (e.g. the stack of a 500) show in the test output.
    if (ready) process.stderr.write(prefixLines(chunk.toString(), '[e2e server] '))
  })

  // Should Vitest itself be killed, at least the server goes with it.
  const killChild = () => child.kill('SIGKILL')
  process.once('exit', killChild)
  const teardown = async () => {
    process.off('exit', killChild)
    await stop(child)
    await database.drop()
    if (buildDir) await rm(buildDir, { recursive: true, force: true })
  }
  try {
    await waitForHealth(baseUrl, child, output)
  } catch (error) {
    await teardown()
    throw error
  }
  ready = true
  log(`server ready at ${baseUrl} (${database.description}) in ${seconds(t1)}`)
  project.provide('baseUrl', baseUrl)
  project.provide('staticDir', staticDir)
  project.provide('databaseUrl', database.env.DATABASE_URL ?? null)

  return async () => {
    const t = performance.now()
    await teardown()
    log(`server stopped and database removed in ${seconds(t)}`)
  }
}

type FreshDatabase = { env: Record<string, string>; description: string; drop: () => Promise<void> }

/** A uniquely named database on DATABASE_URL's server, or an empty temporary PGlite directory. */
async function freshDatabase(): Promise<FreshDatabase> {
  const adminUrl = process.env.DATABASE_URL
  if (adminUrl) {
    const name = `pairwise_e2e_${randomBytes(6).toString('hex')}`
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
    try {
      await admin.unsafe(`CREATE DATABASE ${name}`)
    } finally {
      await admin.end()
    }
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    return {
      env: { DATABASE_URL: url.toString() },
      description: `PostgreSQL database ${name}`,
      drop: async () => {
        const sql = postgres(adminUrl, { max: 1, onnotice: () => {} })
        try {
          await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
        } finally {
          await sql.end()
        }
      },
    }
  }
  const dir = await mkdtemp(join(tmpdir(), 'pairwise-e2e-'))
  return {
    env: { DATA_DIR: dir },
    description: `PGlite in ${dir}`,
    drop: () => rm(dir, { recursive: true, force: true }),
  }
}

/** A TCP port nothing listens on at 127.0.0.1 right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => (port ? resolve(port) : reject(new Error('No free port found'))))
    })
  })
}

async function waitForHealth(baseUrl: string, child: ChildProcess, output: OutputTail) {
  const deadline = Date.now() + START_TIMEOUT_MS
  let last = 'no answer yet'
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `The server exited (${child.exitCode ?? child.signalCode}) before answering ` +
          `/healthz. Its output:\n${output.text()}`,
      )
    }
    try {
      const res = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2_000) })
      if (res.status === 200) return
      last = `status ${res.status}: ${await res.text()}`
    } catch (error) {
      last = error instanceof Error ? error.message : String(error)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(
    `The server did not answer GET ${baseUrl}/healthz with 200 within ` +
      `${START_TIMEOUT_MS / 1000} s (last: ${last}). Its output:\n${output.text()}`,
  )
}

/** SIGTERM, then SIGKILL if the server has not exited after STOP_TIMEOUT_MS. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
  await exited
  clearTimeout(timer)
}

/** Runs a command with its output captured; shows the output only when it fails. */
function run(command: string, args: string[], label: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const output = new OutputTail()
    // Vitest sets NODE_ENV=test, which would make Vite build a development bundle (React's
    // development build, no service worker registration): build what users get.
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout?.on('data', (chunk: Buffer) => output.add(chunk))
    child.stderr?.on('data', (chunk: Buffer) => output.add(chunk))
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      if (code === 0) return resolve()
      process.stderr.write(output.text())
      reject(new Error(`${label} failed (${code ?? signal}); its output is above.`))
    })
  })
}

/** The last 64 KiB of a process's output. */
class OutputTail {
  private chunks = ''
  add(chunk: Buffer) {
    this.chunks = (this.chunks + chunk.toString()).slice(-65_536)
  }
  text() {
    return this.chunks || '(no output)\n'
  }
}

function prefixLines(text: string, prefix: string): string {
  return text.replace(/^(?=.)/gm, prefix)
}

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`
}

function log(message: string) {
  console.log(`[e2e] ${message}`)
}
