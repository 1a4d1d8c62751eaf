import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import postgres from 'postgres'

const root = fileURLToPath(new URL('../..', import.meta.url))

/**
 * Bundles sync-server/main.ts as `npm run build:server` does, into a folder
 * of this test file's own (two levels below the repo, like build/server, so
 * the bundle finds sql/). Answers the entry point and a function removing it.
 */
export async function buildServer(): Promise<{ entry: string; remove: () => Promise<void> }> {
  const dir = `${root}build/test-${randomBytes(4).toString('hex')}`
  await build({
    entryPoints: [`${root}sync-server/main.ts`],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: `${dir}/main.js`,
    logLevel: 'error',
  })
  return { entry: `${dir}/main.js`, remove: () => rm(dir, { recursive: true, force: true }) }
}

/** A fresh database on DATABASE_URL's server; `drop` removes it (connections included). */
export async function createDatabase(
  adminUrl: string,
): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `pairwise_test_${randomBytes(6).toString('hex')}`
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const again = postgres(adminUrl, { max: 1, onnotice: () => {} })
      await again.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await again.end()
    },
  }
}

export type ServerProcess = {
  url: string
  port: number
  child: ChildProcess
  /** Everything the process printed so far. */
  output: () => string
  /** Resolves with the exit code (or the signal) once the process ends. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/**
 * Runs the bundled server as production does (`node build/server/main.js`)
 * on a loopback port, and resolves once it listens. `env` adds to a small
 * test environment (no demo data, no sign-in rate limit to speak of).
 */
export async function startServerProcess(
  entry: string,
  env: Record<string, string>,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--enable-source-maps', entry], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      SEED: 'false',
      AUTH_RATE_LIMIT: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk) => {
    output += String(chunk)
  })
  child.stderr?.on('data', (chunk) => {
    output += String(chunk)
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  const port = await new Promise<number>((resolve, reject) => {
    const look = () => {
      const match = /listening on http:\/\/localhost:(\d+)/.exec(output)
      if (match) resolve(Number(match[1]))
    }
    child.stdout?.on('data', look)
    void exited.then(({ code, signal }) =>
      reject(new Error(`The server exited (${code ?? signal}) before listening:\n${output}`)),
    )
  })
  return { url: `http://127.0.0.1:${port}`, port, child, output: () => output, exited }
}
