import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import postgres from 'postgres'
import { type AppOptions, createApp } from '../app.ts'
import { type Config, loadConfig } from '../config.ts'
import { openDatabase, type Sql } from '../db/connect.ts'
import { migrate } from '../db/migrate.ts'
import { keepConnectionsAlive } from '../http/keep-alive.ts'

/** What production needs to start: Entra credentials and the public address (never contacted). */
export const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://pairwise.example.com',
  ENTRA_CLIENT_ID: '00000000-0000-4000-8000-00000000c1d0',
  ENTRA_CLIENT_SECRET: 'test-client-secret',
  ENTRA_TENANT_ID: '00000000-0000-4000-8000-000000007e7',
} as const

export type TestServer = {
  url: string
  sql: Sql
  config: Config
  /** The test database on DATABASE_URL's server; undefined on embedded PGlite. */
  databaseUrl: string | undefined
  /** A signed-in HTTP client; an unknown username is created (as dev-login does). */
  signIn: (username: string) => Promise<Client>
  /** A client without a session. */
  anonymous: () => Client
  stop: () => Promise<void>
  /** Stops at once, as a crash would: open connections and transactions are cut. */
  kill: () => Promise<void>
}

export type TestServerOptions = {
  /** Another server on the same database (real PostgreSQL only): a second instance. */
  sharing?: TestServer
  app?: AppOptions
}

/**
 * Starts the real server on a loopback port over a database of its own: a
 * fresh database on the server DATABASE_URL points at (dropped at stop), or
 * an in-memory embedded PGlite when DATABASE_URL is not set. With `sharing`,
 * it serves the database of another test server (which drops it).
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: TestServerOptions = {},
): Promise<TestServer> {
  const adminUrl = options.sharing ? undefined : process.env.DATABASE_URL
  let dbName: string | undefined
  let databaseUrl: string | undefined = options.sharing?.databaseUrl
  if (options.sharing && !databaseUrl) {
    throw new Error('Only a server on DATABASE_URL can share its database.')
  }
  if (adminUrl) {
    dbName = `pairwise_test_${randomBytes(6).toString('hex')}`
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
    await admin.unsafe(`CREATE DATABASE ${dbName}`)
    await admin.end()
    const url = new URL(adminUrl)
    url.pathname = `/${dbName}`
    databaseUrl = url.toString()
  }
  const db = await openDatabase({ databaseUrl, dataDir: 'memory://', poolSize: 10 })
  await migrate(db.sql)
  const config = loadConfig({
    NODE_ENV: 'test',
    SEED: 'false',
    STATIC_DIR: 'dist',
    // Suites sign in hundreds of users from one address; the rate-limit tests set their own.
    AUTH_RATE_LIMIT: '1000000',
    ...env,
  })
  const app = createApp({ sql: db.sql, config }, options.app)
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
  keepConnectionsAlive(server)
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url,
    sql: db.sql,
    config,
    databaseUrl,
    anonymous: () => new Client(url),
    signIn: async (username) => {
      const client = new Client(url)
      const res = await client.post('/api/auth/dev-login', { userId: username })
      if (res.status !== 200)
        throw new Error(`dev-login as ${username} failed: ${res.status} ${res.text}`)
      client.user = res.body as Client['user']
      return client
    },
    stop: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      // What a test left open (a stream, a request its client gave up on) ends with the test:
      // idle connections stay open 65 s (http/keep-alive.ts), longer than any hook waits.
      if ('closeAllConnections' in server) server.closeAllConnections()
      await closed
      await db.close()
      if (adminUrl && dbName) {
        const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
        await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
        await admin.end()
      }
    },
    kill: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      if ('closeAllConnections' in server) server.closeAllConnections()
      await db.sql.end({ timeout: 0 })
      await closed
    },
  }
}

export type Answer = {
  status: number
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  body: any
  text: string
  headers: Headers
}

type RequestOptions = { headers?: Record<string, string>; raw?: string }

/** A minimal HTTP client with a cookie jar (name → value, any path, Secure ignored). */
export class Client {
  readonly jar = new Map<string, string>()
  user: { id: string; username: string; isAdmin: boolean } | undefined

  constructor(readonly baseUrl: string) {}

  /** The Cookie header the client sends, or undefined with an empty jar. */
  get cookie(): string | undefined {
    if (this.jar.size === 0) return undefined
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ')
  }

  set cookie(header: string | undefined) {
    this.jar.clear()
    for (const pair of header?.split(';') ?? []) {
      const [name, ...value] = pair.trim().split('=')
      if (name) this.jar.set(name, value.join('='))
    }
  }

  get(path: string, options: RequestOptions = {}) {
    return this.request('GET', path, undefined, options)
  }
  post(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request('POST', path, body, options)
  }
  patch(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request('PATCH', path, body, options)
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    options: RequestOptions = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
    if (this.cookie) headers.cookie = this.cookie
    let payload: string | undefined = options.raw
    if (payload === undefined && body !== undefined) {
      payload = JSON.stringify(body)
      headers['content-type'] ??= 'application/json'
    }
    const res = await fetch(this.baseUrl + path, {
      method,
      headers,
      body: payload,
      redirect: 'manual',
    })
    for (const line of res.headers.getSetCookie()) this.store(line)
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = text === '' ? undefined : JSON.parse(text)
    } catch {}
    return { status: res.status, body: parsed, text, headers: res.headers }
  }

  /** Keeps or drops one Set-Cookie line as a browser would (expiry by Max-Age or Expires). */
  private store(line: string): void {
    const [pair = '', ...attributes] = line.split(';')
    const at = pair.indexOf('=')
    const name = pair.slice(0, at).trim()
    const value = pair.slice(at + 1).trim()
    const expired = attributes.some((a) => {
      const [key = '', v = ''] = a.trim().split('=')
      if (key.toLowerCase() === 'max-age') return Number(v) <= 0
      if (key.toLowerCase() === 'expires') return Date.parse(v) <= Date.now()
      return false
    })
    if (expired || value === '') this.jar.delete(name)
    else this.jar.set(name, value)
  }
}
