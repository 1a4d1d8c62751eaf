import { execFile, execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export type PrivatePostgres = {
  url: string
  /** Stops the server as a crash would (`pg_ctl stop -m immediate`): every connection cut. */
  kill: () => Promise<void>
  /** Starts it again on the same port and data. */
  start: () => Promise<void>
  remove: () => Promise<void>
}

/** The newest installed PostgreSQL's bin directory (Debian layout), if any. */
function binDir(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] ? join(root, versions[0], 'bin') : undefined
}

/**
 * Whether this machine can run a PostgreSQL of a test's own: the binaries are
 * installed and we are root (initdb then runs as the `postgres` user) or that user.
 */
export function canRunPrivatePostgres(): boolean {
  const user = process.getuid?.()
  return binDir() !== undefined && (user === 0 || process.env.USER === 'postgres')
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return typeof address === 'object' && address ? address.port : 0
}

/**
 * A throwaway PostgreSQL server on a loopback port, that a test may stop and
 * start as it likes without disturbing the machine's shared server.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir()
  if (!bin) throw new Error('No PostgreSQL binaries under /usr/lib/postgresql.')
  const dir = mkdtempSync(join(tmpdir(), 'pairwise-pg-'))
  const command = (name: string, args: string[]): [string, string[]] =>
    process.getuid?.() === 0
      ? ['runuser', ['-u', 'postgres', '--', join(bin, name), ...args]]
      : [join(bin, name), args]
  // Never blocking: the test's clients keep sending while the server stops and starts.
  const asPostgres = async (name: string, args: string[]) => {
    await run(...command(name, args))
  }
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir])
  const data = join(dir, 'data')
  await asPostgres('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync'])
  const port = await freePort()
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c max_connections=60`
  const start = () =>
    asPostgres('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start'])
  await start()
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    kill: () => asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    start,
    remove: async () => {
      await asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {
        // Already stopped.
      })
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
