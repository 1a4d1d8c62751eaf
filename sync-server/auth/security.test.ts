import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Hono } from 'hono'
import { ElementType, parseDocument } from 'htmlparser2'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SIGN_IN_ERRORS } from '../../shared/sign-in.ts'
import { sweepExpired } from '../housekeeping.ts'
import type { AppEnv } from '../http/env.ts'
import { createTopic, expectProblem, signInAdmin, statusOf, unique } from '../test/api.ts'
import {
  type Answer,
  type Client,
  PRODUCTION_ENV,
  startTestServer,
  type TestServer,
} from '../test/server.ts'
import { createSession, setSessionCookie } from './sessions.ts'

// Sessions, logout, security headers, the sign-in rate limit, the development
// sign-in page and housekeeping, over the real HTTP server. Time passing is
// simulated by moving timestamps back in SQL, never by sleeping.

const DAY_MS = 24 * 60 * 60 * 1000
/** SESSION_IDLE_DAYS and SESSION_MAX_DAYS of the development server: short, to tell them apart. */
const IDLE_DAYS = 2
const MAX_DAYS = 5

/** What a browser sends with a form the page itself submits. */
const SAME_ORIGIN_FORM = {
  'content-type': 'application/x-www-form-urlencoded',
  'sec-fetch-site': 'same-origin',
  accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
}
const HTML_NAVIGATION = {
  accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
  'sec-fetch-site': 'none',
  'sec-fetch-mode': 'navigate',
}

let staticDir: string
/** NODE_ENV=development, short session lifetimes, a built app of its own. */
let dev: TestServer

beforeAll(async () => {
  staticDir = await mkdtemp(join(tmpdir(), 'pairwise-static-'))
  await writeFile(
    join(staticDir, 'index.html'),
    '<!doctype html><html><head><title>Pairwise</title><script type="module" src="/app.js"></script></head><body></body></html>',
  )
  await writeFile(join(staticDir, 'app.js'), 'console.log("app")\n')
  await writeFile(
    join(staticDir, 'favicon.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>',
  )
  dev = await startTestServer({
    NODE_ENV: 'development',
    STATIC_DIR: staticDir,
    SESSION_IDLE_DAYS: String(IDLE_DAYS),
    SESSION_MAX_DAYS: String(MAX_DAYS),
  })
})
afterAll(async () => {
  await dev?.stop()
  if (staticDir) await rm(staticDir, { recursive: true, force: true })
})

// --- helpers -----------------------------------------------------------------

type Node = ReturnType<typeof parseDocument>['children'][number]
type Element = Extract<Node, { attribs: Record<string, string> }>

/** Every element of an HTML answer, in document order. */
function elements(htmlText: string): Element[] {
  const found: Element[] = []
  const walk = (nodes: readonly Node[]) => {
    for (const node of nodes) {
      if (
        node.type === ElementType.Tag ||
        node.type === ElementType.Script ||
        node.type === ElementType.Style
      ) {
        found.push(node)
        walk(node.children)
      }
    }
  }
  walk(parseDocument(htmlText).children)
  return found
}

/** The text inside an element, tags removed, white space collapsed. */
function textOf(node: Node): string {
  if (node.type === ElementType.Text) return node.data
  if ('children' in node) return node.children.map(textOf).join('').replace(/\s+/g, ' ').trim()
  return ''
}

/** The directives of a Content-Security-Policy header: name → sources. */
function cspOf(res: Answer): Map<string, string[]> {
  const header = res.headers.get('content-security-policy')
  expect(header, `CSP on ${res.status} ${res.headers.get('content-type')}`).toBeTruthy()
  const directives = new Map<string, string[]>()
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/)
    if (name) directives.set(name.toLowerCase(), sources)
  }
  return directives
}

/** The nonce style-src allows in this answer. */
function styleNonce(res: Answer): string | undefined {
  const sources = cspOf(res).get('style-src') ?? []
  return sources.map((s) => /^'nonce-([^']+)'$/.exec(s)?.[1]).find(Boolean)
}

/** The security headers every answer carries, in production or in development. */
function expectSecurityHeaders(res: Answer, production: boolean, what = ''): void {
  const label = `${what} (${res.status} ${res.headers.get('content-type') ?? ''})`
  const csp = cspOf(res)
  const scriptSrc = csp.get('script-src') ?? csp.get('default-src') ?? []
  expect(scriptSrc.length, label).toBeGreaterThan(0)
  expect(scriptSrc, label).not.toContain("'unsafe-inline'")
  expect(scriptSrc, label).not.toContain("'unsafe-eval'")
  expect(scriptSrc, label).not.toContain('*')
  expect(csp.get('style-src'), label).not.toContain("'unsafe-inline'")
  expect(csp.get('frame-ancestors'), label).toEqual(["'none'"])
  expect(csp.get('object-src'), label).toEqual(["'none'"])
  expect(csp.get('base-uri'), label).toEqual(["'none'"])
  expect(csp.has('upgrade-insecure-requests'), label).toBe(production)
  expect(res.headers.get('x-content-type-options'), label).toBe('nosniff')
  expect(res.headers.get('x-frame-options'), label).toBe('DENY')
  expect(res.headers.get('referrer-policy'), label).toMatch(
    /^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/,
  )
  const hsts = res.headers.get('strict-transport-security')
  if (production) {
    expect(hsts, label).toMatch(/^max-age=\d+; includeSubDomains/)
    expect(Number(/max-age=(\d+)/.exec(hsts ?? '')?.[1]), label).toBeGreaterThanOrEqual(31536000)
  } else {
    expect(hsts, label).toBeNull()
  }
}

/** A url-encoded form post, as the development sign-in page sends it. */
function postForm(client: Client, fields: Record<string, string>, headers = {}) {
  return client.post('/api/auth/dev-login', undefined, {
    raw: new URLSearchParams(fields).toString(),
    headers: { ...SAME_ORIGIN_FORM, ...headers },
  })
}

async function count(server: TestServer, table: 'users' | 'sessions'): Promise<number> {
  const [row] = await server.sql<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM ${server.sql(table)}`
  return row?.n ?? -1
}

async function sessionCount(server: TestServer, userId: string | undefined): Promise<number> {
  const [row] = await server.sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM sessions WHERE user_id = ${userId ?? ''}`
  return row?.n ?? -1
}

async function userNamed(server: TestServer, username: string) {
  const [row] = await server.sql<{ id: string; isAdmin: boolean }[]>`
    SELECT id, is_admin AS "isAdmin" FROM users WHERE lower(username) = lower(${username})`
  return row
}

/** The session cookie's value in a Set-Cookie header. */
function sessionIdIn(res: Answer, name = 'pairwise_session'): string | undefined {
  const line = res.headers.getSetCookie().find((l) => l.startsWith(`${name}=`))
  return line?.split(';')[0]?.slice(name.length + 1) || undefined
}

/** Makes time pass for a user's sessions: every timestamp moves back by `ms`. */
async function letTimePass(server: TestServer, userId: string | undefined, ms: number) {
  const shift = `${Math.round(ms / 1000)} seconds`
  await server.sql`
    UPDATE sessions SET created_at = created_at - ${shift}::interval,
      last_seen_at = last_seen_at - ${shift}::interval,
      expires_at = expires_at - ${shift}::interval
    WHERE user_id = ${userId ?? ''}`
}

/** Milliseconds from now until the user's (one) session expires. */
async function expiresIn(server: TestServer, userId: string | undefined): Promise<number> {
  const [row] = await server.sql<{ ms: number }[]>`
    SELECT (extract(epoch FROM expires_at - now()) * 1000)::float8 AS ms
    FROM sessions WHERE user_id = ${userId ?? ''}`
  return row?.ms ?? Number.NaN
}

// --- sessions ----------------------------------------------------------------

describe('sessions', () => {
  it('get a random 256-bit id of which only a hash is stored', async () => {
    const name = unique('random-id')
    const first = await dev.anonymous().post('/api/auth/dev-login', { userId: name })
    const second = await dev.anonymous().post('/api/auth/dev-login', { userId: name })

    const ids = [sessionIdIn(first), sessionIdIn(second)]
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(Buffer.from(id ?? '', 'base64url')).toHaveLength(32)
    }
    expect(ids[0]).not.toBe(ids[1])
    const rows = await dev.sql<{ row: string }[]>`
      SELECT s::text AS row FROM sessions s WHERE user_id = ${first.body.id}`
    expect(rows).toHaveLength(2)
    for (const { row } of rows) {
      for (const id of ids) expect(row).not.toContain(id)
    }
  })

  it('expire SESSION_IDLE_DAYS after sign-in; the cookie lasts SESSION_MAX_DAYS', async () => {
    const res = await dev.anonymous().post('/api/auth/dev-login', { userId: unique('fresh') })

    const line = res.headers.getSetCookie().find((l) => l.startsWith('pairwise_session=')) ?? ''
    expect(line).toMatch(new RegExp(`;\\s*Max-Age=${MAX_DAYS * 86400}(;|$)`, 'i'))
    expect(Math.abs((await expiresIn(dev, res.body.id)) - IDLE_DAYS * DAY_MS)).toBeLessThan(60_000)
  })

  it('move the idle expiry SESSION_IDLE_DAYS ahead when used', async () => {
    const client = await dev.signIn(unique('rolling'))
    const userId = client.user?.id
    await letTimePass(dev, userId, 1.5 * DAY_MS)
    expect(await expiresIn(dev, userId)).toBeLessThan(DAY_MS)

    expect((await client.get('/api/user')).status).toBe(200)

    expect(Math.abs((await expiresIn(dev, userId)) - IDLE_DAYS * DAY_MS)).toBeLessThan(60_000)
  })

  it('end after SESSION_IDLE_DAYS without use, with 401 problem+json and no redirect', async () => {
    const client = await dev.signIn(unique('idle'))
    const userId = client.user?.id
    await letTimePass(dev, userId, IDLE_DAYS * DAY_MS - 60 * 60 * 1000)
    expect((await client.get('/api/user')).status).toBe(200)

    await letTimePass(dev, userId, IDLE_DAYS * DAY_MS + 60 * 1000)

    const api = await client.get('/api/user')
    expectProblem(api, 401, /not signed in/)
    expect(api.headers.get('location')).toBeNull()
    // A browser navigation to the API gets the same answer, never a redirect to a sign-in page.
    const navigation = await client.get('/api/user', { headers: HTML_NAVIGATION })
    expectProblem(navigation, 401)
    expect(navigation.headers.get('location')).toBeNull()
    const write = await client.patch(`/api/users/${client.user?.username}`, { bio: 'late' })
    expectProblem(write, 401)
    // A refused request does not bring the session back.
    expect(await expiresIn(dev, userId)).toBeLessThan(0)
  })

  it('end SESSION_MAX_DAYS after sign-in, however often they are used', async () => {
    const client = await dev.signIn(unique('daily'))
    const userId = client.user?.id
    const statuses: number[] = []
    for (let day = 1; day <= MAX_DAYS; day++) {
      await letTimePass(dev, userId, DAY_MS)
      statuses.push((await client.get('/api/user')).status)
    }
    // Used every day: the idle expiry never strikes, the absolute lifetime does.
    expect(statuses).toEqual([200, 200, 200, 200, 401])
  })

  it('cap the rolling expiry at SESSION_MAX_DAYS after sign-in', async () => {
    const client = await dev.signIn(unique('capped'))
    const userId = client.user?.id
    await letTimePass(dev, userId, (MAX_DAYS - 0.5) * DAY_MS)
    await dev.sql`UPDATE sessions SET expires_at = now() + interval '1 hour' WHERE user_id = ${userId ?? ''}`

    expect((await client.get('/api/user')).status).toBe(200)

    expect(Math.abs((await expiresIn(dev, userId)) - 0.5 * DAY_MS)).toBeLessThan(60_000)
  })

  it('end once older than SESSION_MAX_DAYS even when their stored expiry is later (a lowered maximum)', async () => {
    const client = await dev.signIn(unique('lowered'))
    const userId = client.user?.id ?? ''
    // As if the session was made under a longer SESSION_MAX_DAYS: expiry still a week ahead.
    await dev.sql`
      UPDATE sessions SET created_at = now() - make_interval(days => ${MAX_DAYS + 1}),
                          expires_at = now() + interval '7 days'
      WHERE user_id = ${userId}`

    expect((await client.get('/api/user')).status).toBe(401)
  })

  it("apply a revoked admin flag on the user's next request", async () => {
    const keeper = await signInAdmin(dev)
    const revoked = await signInAdmin(dev)
    const mentor = await dev.signIn(unique('mentor'))
    const topic = await createTopic(mentor)
    expect((await revoked.get('/api/user')).body.isAdmin).toBe(true)

    const toggle = await keeper.post(`/api/admin/users/${revoked.user?.id}/toggle-admin`)
    expect(toggle.status, toggle.text).toBe(200)
    expect(toggle.body.isAdmin).toBe(false)

    // Same session, no new sign-in: the next request already runs without admin rights.
    expect((await revoked.get('/api/user')).body.isAdmin).toBe(false)
    const review = await revoked.post(`/api/admin/topics/${topic.id}/review`, {
      status: 'approved',
    })
    expectProblem(review, 403)
    expect(await statusOf(dev, topic.id)).toBe('proposed')
  })

  it('are replaced at sign-in: the session the browser had is deleted', async () => {
    const first = await dev.signIn(unique('switch-a'))
    const before = first.cookie
    const other = unique('switch-b')

    // The same browser signs in again, as somebody else.
    const res = await first.post('/api/auth/dev-login', { userId: other })

    expect(res.status).toBe(200)
    expect(first.cookie).not.toBe(before)
    expect(await sessionCount(dev, first.user?.id)).toBe(0)
    expect(await sessionCount(dev, res.body.id)).toBe(1)
    expect((await first.get('/api/user')).body.username).toBe(other)
    const stale = dev.anonymous()
    stale.cookie = before
    expectProblem(await stale.get('/api/user'), 401)
  })

  it('are replaced when the same user signs in again through the form', async () => {
    const name = unique('again')
    const client = await dev.signIn(name)
    const before = client.cookie

    const res = await postForm(client, { userId: name })

    expect(res.status).toBe(303)
    expect(client.cookie).toBeDefined()
    expect(client.cookie).not.toBe(before)
    expect(await sessionCount(dev, client.user?.id)).toBe(1)
    expect((await client.get('/api/user')).status).toBe(200)
    const stale = dev.anonymous()
    stale.cookie = before
    expectProblem(await stale.get('/api/user'), 401)
  })
})

describe('logout', () => {
  it("deletes the session's row", async () => {
    const client = await dev.signIn(unique('leaving'))
    const other = await dev.signIn(client.user?.username ?? '')
    expect(await sessionCount(dev, client.user?.id)).toBe(2)

    const res = await client.get('/api/auth/logout', {
      headers: { 'sec-fetch-site': 'same-origin' },
    })

    expect(res.status).toBe(302)
    expect(await sessionCount(dev, client.user?.id)).toBe(1)
    expect((await other.get('/api/user')).status).toBe(200)
  })

  it('from another site (Sec-Fetch-Site: cross-site) only redirects; the session lives on', async () => {
    const client = await dev.signIn(unique('csrf-logout'))
    const cookie = client.cookie

    const res = await client.get('/api/auth/logout', {
      headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
    })

    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/')
    expect(res.headers.getSetCookie()).toEqual([])
    expect(client.cookie).toBe(cookie)
    expect(await sessionCount(dev, client.user?.id)).toBe(1)
    expect((await client.get('/api/user')).status).toBe(200)
  })
})

describe('sessions in production', () => {
  let production: TestServer
  let userId: string

  beforeAll(async () => {
    production = await startTestServer({ ...PRODUCTION_ENV, STATIC_DIR: staticDir })
    const [row] = await production.sql<{ id: string }[]>`
      INSERT INTO users (username, full_name) VALUES ('prod-user', 'Prod User') RETURNING id`
    userId = row?.id ?? ''
  })
  afterAll(async () => {
    await production?.stop()
  })

  it('are read only from the __Host- prefixed cookie', async () => {
    const id = await createSession(production.sql, production.config, userId)

    const hosted = production.anonymous()
    hosted.cookie = `__Host-pairwise_session=${id}`
    expect((await hosted.get('/api/user')).body.id).toBe(userId)
    const plain = production.anonymous()
    plain.cookie = `pairwise_session=${id}`
    expectProblem(await plain.get('/api/user'), 401)
  })

  it('set a Secure, HttpOnly, SameSite=Lax __Host- cookie and delete the previous session', async () => {
    const previous = await createSession(production.sql, production.config, userId)
    const deps = { sql: production.sql, config: production.config }
    let fresh = ''
    const app = new Hono<AppEnv>()
      .use(async (c, next) => {
        c.set('deps', deps)
        await next()
      })
      .get('/sign-in', async (c) => {
        fresh = await createSession(deps.sql, deps.config, userId)
        await setSessionCookie(c, deps.sql, fresh)
        return c.body(null, 204)
      })

    const res = await app.request('/sign-in', {
      headers: { cookie: `__Host-pairwise_session=${previous}` },
    })

    const [line = '', ...others] = res.headers.getSetCookie()
    expect(others).toEqual([])
    expect(line.startsWith(`__Host-pairwise_session=${fresh};`)).toBe(true)
    const attributes = line.split(';').map((a) => a.trim().toLowerCase())
    expect(attributes).toEqual(
      expect.arrayContaining([
        'path=/',
        'httponly',
        'secure',
        'samesite=lax',
        `max-age=${production.config.SESSION_MAX_DAYS * 86400}`,
      ]),
    )
    expect(attributes.some((a) => a.startsWith('domain='))).toBe(false)
    const valid = production.anonymous()
    valid.cookie = `__Host-pairwise_session=${fresh}`
    expect((await valid.get('/api/user')).status).toBe(200)
    const old = production.anonymous()
    old.cookie = `__Host-pairwise_session=${previous}`
    expectProblem(await old.get('/api/user'), 401)
  })

  it('end at logout with a Secure __Host- cookie deletion and the row gone', async () => {
    const id = await createSession(production.sql, production.config, userId)
    const client = production.anonymous()
    client.cookie = `__Host-pairwise_session=${id}`
    const before = await sessionCount(production, userId)

    const res = await client.get('/api/auth/logout', {
      headers: { 'sec-fetch-site': 'same-origin' },
    })

    expect(res.status).toBe(302)
    const line = res.headers.getSetCookie().find((l) => l.startsWith('__Host-pairwise_session='))
    expect(line).toMatch(/^__Host-pairwise_session=;/)
    expect(line).toMatch(/;\s*Max-Age=0/i)
    expect(line).toMatch(/;\s*Secure/i)
    expect(line).toMatch(/;\s*Path=\//i)
    expect(client.cookie).toBeUndefined()
    expect(await sessionCount(production, userId)).toBe(before - 1)
  })

  it('security headers: HSTS and upgrade-insecure-requests on every answer', async () => {
    const answers: Record<string, Answer> = {
      'JSON API': await production.anonymous().get('/api/openapi.json'),
      'problem (401)': await production.anonymous().get('/api/user'),
      'API 404': await production.anonymous().get('/api/nothing-here'),
      'dev-login 404': await production.anonymous().get('/api/auth/dev-login'),
      'SPA fallback': await production.anonymous().get('/topics/some-id', {
        headers: HTML_NAVIGATION,
      }),
      'static file': await production.anonymous().get('/app.js'),
      healthz: await production.anonymous().get('/healthz'),
      'API docs': await production.anonymous().get('/api/docs'),
      'redirect to Microsoft': await production.anonymous().get('/api/auth/microsoft'),
      'logout redirect': await production.anonymous().get('/api/auth/logout'),
    }
    for (const [what, res] of Object.entries(answers)) expectSecurityHeaders(res, true, what)
  })
})

// --- security headers --------------------------------------------------------

describe('security headers in development', () => {
  it('are on every kind of answer, without HSTS or upgrade-insecure-requests', async () => {
    const me = await dev.signIn(unique('headers'))
    const anonymous = dev.anonymous()
    const answers: Record<string, Answer> = {
      'JSON API': await me.get('/api/topics'),
      'JSON created': await me.post('/api/topics', {
        subject: unique('Headers'),
        maxMentees: 1,
        seniorityRequired: ['junior'],
      }),
      'problem (400)': await me.post('/api/topics', {}),
      'problem (401)': await anonymous.get('/api/user'),
      'problem (403, cross-site)': await me.post(
        '/api/topics',
        {},
        { headers: { 'sec-fetch-site': 'cross-site' } },
      ),
      'API 404': await anonymous.get('/api/nothing-here'),
      'SPA fallback': await anonymous.get('/profile/someone', { headers: HTML_NAVIGATION }),
      'SPA root': await anonymous.get('/', { headers: HTML_NAVIGATION }),
      'static script': await anonymous.get('/app.js'),
      'static image': await anonymous.get('/favicon.svg'),
      healthz: await anonymous.get('/healthz'),
      'API docs': await anonymous.get('/api/docs'),
      'OpenAPI JSON': await anonymous.get('/api/openapi.json'),
      'dev sign-in page': await anonymous.get('/api/auth/dev-login', { headers: HTML_NAVIGATION }),
      'dev sign-in error page': await postForm(dev.anonymous(), { userId: 'bad name!' }),
      'dev sign-in redirect (303)': await postForm(dev.anonymous(), {
        userId: unique('headers-form'),
      }),
      'redirect to the dev page': await anonymous.get('/api/auth/microsoft'),
      'logout redirect': await dev.anonymous().get('/api/auth/logout'),
    }
    expect(answers['SPA fallback']?.text).toContain('<title>Pairwise</title>')
    expect(answers['static script']?.text).toContain('console.log')
    expect(answers['static image']?.headers.get('content-type')).toMatch(/^image\/svg\+xml/)
    for (const [what, res] of Object.entries(answers)) expectSecurityHeaders(res, false, what)
  })

  it('give each answer a new style nonce, the one the <style> of /api/docs carries', async () => {
    const first = await dev.anonymous().get('/api/docs')
    const second = await dev.anonymous().get('/api/docs')

    const nonces = [styleNonce(first), styleNonce(second)]
    expect(nonces[0]).toMatch(/^[A-Za-z0-9+/=_-]{16,}$/)
    expect(nonces[1]).toMatch(/^[A-Za-z0-9+/=_-]{16,}$/)
    expect(nonces[0]).not.toBe(nonces[1])
    for (const [i, res] of [first, second].entries()) {
      const styles = elements(res.text).filter((e) => e.name === 'style')
      expect(styles.length).toBeGreaterThan(0)
      for (const style of styles) expect(style.attribs.nonce).toBe(nonces[i])
    }
  })

  it('give the development sign-in page a style nonce that matches its <style>', async () => {
    const res = await dev.anonymous().get('/api/auth/dev-login', { headers: HTML_NAVIGATION })
    const styles = elements(res.text).filter((e) => e.name === 'style')
    expect(styles.length).toBeGreaterThan(0)
    for (const style of styles) expect(style.attribs.nonce).toBe(styleNonce(res))
    // No inline script or event handler the CSP would have to allow.
    for (const element of elements(res.text)) {
      expect(element.name).not.toBe('script')
      expect(Object.keys(element.attribs).filter((a) => a.startsWith('on'))).toEqual([])
    }
  })
})

// --- CSRF: the development sign-in form --------------------------------------

describe('CSRF: the development sign-in form from another site', () => {
  it.each([
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site' }],
    ['an Origin of another site', { 'sec-fetch-site': undefined, origin: 'https://evil.example' }],
    ['Origin: null (a sandboxed frame)', { 'sec-fetch-site': undefined, origin: 'null' }],
  ])('refuses a url-encoded form post with %s: 403, no user, no session', async (_name, extra) => {
    const name = unique('forged')
    const headers: Record<string, string> = { ...SAME_ORIGIN_FORM }
    for (const [key, value] of Object.entries(extra)) {
      if (value === undefined) delete headers[key]
      else headers[key] = value
    }
    const client = dev.anonymous()
    const users = await count(dev, 'users')
    const sessions = await count(dev, 'sessions')

    const res = await client.post('/api/auth/dev-login', undefined, {
      raw: new URLSearchParams({ userId: name, returnTo: '/' }).toString(),
      headers,
    })

    expectProblem(res, 403, /another site/)
    expect(res.headers.getSetCookie()).toEqual([])
    expect(await userNamed(dev, name)).toBeUndefined()
    expect(await count(dev, 'users')).toBe(users)
    expect(await count(dev, 'sessions')).toBe(sessions)
  })

  it('refuses a cross-site multipart form post that names an existing user', async () => {
    const victim = await dev.signIn(unique('victim'))
    const before = await sessionCount(dev, victim.user?.id)
    const boundary = 'x-boundary'
    const res = await dev.anonymous().post('/api/auth/dev-login', undefined, {
      raw: `--${boundary}\r\nContent-Disposition: form-data; name="userId"\r\n\r\n${victim.user?.username}\r\n--${boundary}--\r\n`,
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'sec-fetch-site': 'cross-site',
      },
    })
    expectProblem(res, 403)
    expect(res.headers.getSetCookie()).toEqual([])
    expect(await sessionCount(dev, victim.user?.id)).toBe(before)
  })
})

// --- the development sign-in page --------------------------------------------

describe('the development sign-in page', () => {
  it('is an HTML page clearly labelled "Development sign-in"', async () => {
    const res = await dev.anonymous().get('/api/auth/dev-login', { headers: HTML_NAVIGATION })

    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    const all = elements(res.text)
    expect(textOf(all.find((e) => e.name === 'title') as Node)).toMatch(/Development sign-in/)
    expect(textOf(all.find((e) => e.name === 'h1') as Node)).toBe('Development sign-in')
    expect(textOf(parseDocument(res.text))).toMatch(/development only/i)
  })

  it('lists existing users as buttons with username, name and an Admin badge for admins', async () => {
    const plain = unique('listed')
    const boss = unique('listed-admin')
    await dev.sql`
      INSERT INTO users (username, full_name, is_admin)
      VALUES (${plain}, 'Grace Listed', false), (${boss}, 'Ada Bossy', true)`

    const res = await dev.anonymous().get('/api/auth/dev-login', { headers: HTML_NAVIGATION })

    const all = elements(res.text)
    const button = (username: string) =>
      all.find((e) => e.name === 'button' && e.attribs.value === username)
    const plainButton = button(plain)
    const bossButton = button(boss)
    expect(plainButton).toBeDefined()
    expect(bossButton).toBeDefined()
    for (const [b, username, fullName] of [
      [plainButton, plain, 'Grace Listed'],
      [bossButton, boss, 'Ada Bossy'],
    ] as const) {
      expect(b?.attribs.name).toBe('userId')
      expect(b?.attribs.type ?? 'submit').toBe('submit')
      expect(textOf(b as Node)).toContain(fullName)
      expect(textOf(b as Node)).toContain(username)
    }
    expect(textOf(bossButton as Node)).toMatch(/\bAdmin\b/)
    expect(textOf(plainButton as Node)).not.toMatch(/\bAdmin\b/)
    // The buttons submit a url-encoded form to POST /api/auth/dev-login.
    const forms = all.filter((e) => e.name === 'form')
    const usersForm = forms.find((f) => contains(f, plainButton as Node))
    expect(usersForm?.attribs.method?.toLowerCase()).toBe('post')
    expect(usersForm?.attribs.action).toBe('/api/auth/dev-login')
    expect(usersForm?.attribs.enctype ?? 'application/x-www-form-urlencoded').toBe(
      'application/x-www-form-urlencoded',
    )
  })

  it('has a field for a new username in a form that posts userId', async () => {
    const res = await dev.anonymous().get('/api/auth/dev-login', { headers: HTML_NAVIGATION })

    const all = elements(res.text)
    const input = all.find((e) => e.name === 'input' && e.attribs.name === 'userId')
    expect(input).toBeDefined()
    expect(input?.attribs.type ?? 'text').toBe('text')
    const label = all.find((e) => e.name === 'label' && e.attribs.for === input?.attribs.id)
    expect(textOf(label as Node)).toMatch(/username/i)
    const form = all.find((e) => e.name === 'form' && contains(e, input as Node))
    expect(form?.attribs.method?.toLowerCase()).toBe('post')
    expect(form?.attribs.action).toBe('/api/auth/dev-login')
  })

  it('keeps a safe returnTo in hidden fields, and drops an unsafe one', async () => {
    const safe = await dev
      .anonymous()
      .get('/api/auth/dev-login?returnTo=%2Ftopics%2Fabc%3Ftab%3D2', { headers: HTML_NAVIGATION })
    const hidden = elements(safe.text).filter(
      (e) => e.name === 'input' && e.attribs.name === 'returnTo',
    )
    expect(hidden.length).toBeGreaterThan(0)
    for (const field of hidden) {
      expect(field.attribs.type).toBe('hidden')
      expect(field.attribs.value).toBe('/topics/abc?tab=2')
    }

    for (const returnTo of ['//evil.example', 'https://evil.example', '/\\evil.example']) {
      const res = await dev
        .anonymous()
        .get(`/api/auth/dev-login?returnTo=${encodeURIComponent(returnTo)}`)
      expect(res.status).toBe(200)
      expect(elements(res.text).filter((e) => e.attribs.name === 'returnTo')).toEqual([])
      expect(res.text).not.toContain('evil.example')
    }
  })

  it('is where /api/auth/microsoft leads without Entra credentials, keeping a safe returnTo', async () => {
    const client = dev.anonymous()
    const withReturn = await client.get('/api/auth/microsoft?returnTo=%2Ftopics%2Fabc', {
      headers: HTML_NAVIGATION,
    })
    expect(withReturn.status).toBe(302)
    const location = new URL(withReturn.headers.get('location') ?? '', dev.url)
    expect(location.origin).toBe(dev.url)
    expect(location.pathname).toBe('/api/auth/dev-login')
    expect(location.searchParams.get('returnTo')).toBe('/topics/abc')

    for (const returnTo of ['//evil.example', 'https://evil.example/x']) {
      const res = await client.get(`/api/auth/microsoft?returnTo=${encodeURIComponent(returnTo)}`)
      expect(res.status).toBe(302)
      expect(res.headers.get('location')).toBe('/api/auth/dev-login')
    }

    const page = await client.get(location.pathname + location.search, {
      headers: HTML_NAVIGATION,
    })
    expect(page.status).toBe(200)
    expect(page.text).toContain('Development sign-in')
  })

  it('signs in an existing user from the form and redirects 303 to the safe returnTo', async () => {
    const name = unique('form-user')
    await dev.sql`INSERT INTO users (username, full_name) VALUES (${name}, 'Form User')`
    const client = dev.anonymous()

    const res = await postForm(client, { userId: name, returnTo: '/topics/xyz' })

    expect(res.status).toBe(303)
    // Marked, so the app says "Development Login Success" once.
    expect(res.headers.get('location')).toBe('/topics/xyz?signed_in=dev')
    expect(sessionIdIn(res)).toBeDefined()
    const me = await client.get('/api/user')
    expect(me.status).toBe(200)
    expect(me.body.username).toBe(name)
  })

  it('creates a user for a new username from the form and redirects 303 to /', async () => {
    const name = unique('form-new')
    const client = dev.anonymous()

    const res = await postForm(client, { userId: name })

    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/?signed_in=dev')
    const user = await userNamed(dev, name)
    expect(user).toMatchObject({ isAdmin: false })
    expect((await client.get('/api/user')).body.id).toBe(user?.id)
  })

  it.each([
    '//evil.example',
    'https://evil.example',
    '/\\evil.example',
    'javascript:alert(1)',
    '/api/auth/logout',
  ])('sends the form to / when returnTo is unsafe: %s', async (returnTo) => {
    const client = dev.anonymous()
    const res = await postForm(client, { userId: unique('unsafe-return'), returnTo })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/?signed_in=dev')
    expect((await client.get('/api/user')).status).toBe(200)
  })

  it('re-renders the page with 400, the error and the escaped value for an invalid username', async () => {
    const typed = 'x"><script>alert(1)</script>'
    const client = dev.anonymous()
    const users = await count(dev, 'users')

    const res = await postForm(client, { userId: typed, returnTo: '/topics/abc' })

    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(res.headers.get('location')).toBeNull()
    expect(res.headers.getSetCookie()).toEqual([])
    expect(res.text).not.toContain('"><script>')
    expect(res.text).not.toContain('<script>alert(1)</script>')
    const all = elements(res.text)
    expect(all.filter((e) => e.name === 'script')).toEqual([])
    const alert = all.find((e) => e.attribs.role === 'alert')
    // The spec's failed-login title, then the reason.
    expect(textOf(alert as Node)).toMatch(/^Login Failed.*letters, digits/)
    const input = all.find(
      (e) => e.name === 'input' && e.attribs.name === 'userId' && e.attribs.type !== 'hidden',
    )
    expect(input?.attribs.value).toBe(typed)
    // The safe returnTo survives the error.
    const hidden = all.filter((e) => e.attribs.name === 'returnTo')
    expect(hidden.map((e) => e.attribs.value)).toContain('/topics/abc')
    expect(await count(dev, 'users')).toBe(users)
    expectProblem(await client.get('/api/user'), 401)
  })

  it('re-renders the page with 404 for an id that names nobody, signing nobody in', async () => {
    const client = dev.anonymous()
    const res = await postForm(client, { userId: '00000000-0000-4000-8000-0000000000aa' })
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    const alert = elements(res.text).find((e) => e.attribs.role === 'alert')
    expect(textOf(alert as Node)).toMatch(/not found/i)
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it('re-renders the page with 400 for an empty username', async () => {
    const res = await postForm(dev.anonymous(), { userId: '   ' })
    expect(res.status).toBe(400)
    expect(elements(res.text).find((e) => e.attribs.role === 'alert')).toBeDefined()
    expect(res.headers.getSetCookie()).toEqual([])
  })
})

describe('the development sign-in in production', () => {
  let production: TestServer

  beforeAll(async () => {
    production = await startTestServer({ ...PRODUCTION_ENV, STATIC_DIR: staticDir })
  })
  afterAll(async () => {
    await production?.stop()
  })

  it('GET /api/auth/dev-login answers 404', async () => {
    const res = await production
      .anonymous()
      .get('/api/auth/dev-login?returnTo=%2F', { headers: HTML_NAVIGATION })
    expect(res.status).toBe(404)
    expect(res.text).not.toContain('Development sign-in')
  })

  it('a form POST to /api/auth/dev-login answers 404 and signs nobody in', async () => {
    const client = production.anonymous()
    const res = await postForm(client, { userId: 'form-intruder', returnTo: '/' })
    expectProblem(res, 404)
    expect(res.headers.getSetCookie()).toEqual([])
    expect(await count(production, 'users')).toBe(0)
    expect(await count(production, 'sessions')).toBe(0)
  })

  it("/api/auth/microsoft redirects to Microsoft's authorize endpoint, not the dev page", async () => {
    const res = await production
      .anonymous()
      .get('/api/auth/microsoft?returnTo=%2Ftopics', { headers: HTML_NAVIGATION })

    expect(res.status).toBe(302)
    const location = new URL(res.headers.get('location') ?? '')
    expect(location.origin).toBe('https://login.microsoft.com')
    expect(location.pathname).toBe(`/${PRODUCTION_ENV.ENTRA_TENANT_ID}/oauth2/v2.0/authorize`)
    expect(location.searchParams.get('client_id')).toBe(PRODUCTION_ENV.ENTRA_CLIENT_ID)
    expect(location.searchParams.get('redirect_uri')).toBe(
      `${PRODUCTION_ENV.PUBLIC_URL}/api/auth/microsoft`,
    )
  })
})

// --- rate limit --------------------------------------------------------------

describe('the sign-in rate limit (AUTH_RATE_LIMIT=3)', () => {
  let limited: TestServer

  beforeAll(async () => {
    limited = await startTestServer({ AUTH_RATE_LIMIT: '3', NODE_ENV: 'development' })
  })
  afterAll(async () => {
    await limited?.stop()
  })
  beforeEach(async () => {
    await limited.sql`DELETE FROM rate_limits`
  })

  function retryAfter(res: Answer): number {
    const value = res.headers.get('retry-after') ?? ''
    expect(value).toMatch(/^\d+$/)
    return Number(value)
  }

  it('answers the 4th sign-in in a minute with 429 problem+json and Retry-After', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) {
      statuses.push(
        (await limited.anonymous().post('/api/auth/dev-login', { userId: 'ok' })).status,
      )
    }
    expect(statuses).toEqual([200, 200, 200])
    const users = await count(limited, 'users')
    const sessions = await count(limited, 'sessions')
    const name = unique('refused')

    const res = await limited.anonymous().post('/api/auth/dev-login', { userId: name })

    expectProblem(res, 429, /Too many sign-in attempts/)
    expect(retryAfter(res)).toBeGreaterThanOrEqual(1)
    expect(retryAfter(res)).toBeLessThanOrEqual(60)
    expect(res.headers.getSetCookie()).toEqual([])
    expect(await userNamed(limited, name)).toBeUndefined()
    expect(await count(limited, 'users')).toBe(users)
    expect(await count(limited, 'sessions')).toBe(sessions)
    expectSecurityHeaders(res, false, '429 problem')
  })

  it('counts /api/auth/microsoft and /api/auth/dev-login together', async () => {
    const client = limited.anonymous()
    expect((await client.get('/api/auth/microsoft')).status).toBe(302)
    expect((await client.get('/api/auth/dev-login')).status).toBe(200)
    expect((await client.get('/api/auth/microsoft')).status).toBe(302)

    expectProblem(await client.get('/api/auth/microsoft'), 429)
    expectProblem(await client.get('/api/auth/dev-login'), 429)
    expectProblem(await client.post('/api/auth/dev-login', { userId: 'ok' }), 429)
  })

  it('answers a browser navigation with a readable HTML page', async () => {
    for (let i = 0; i < 3; i++) await limited.anonymous().get('/api/auth/microsoft')

    const res = await limited.anonymous().get('/api/auth/microsoft', { headers: HTML_NAVIGATION })

    expect(res.status).toBe(429)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(res.headers.get('location')).toBeNull()
    expect(retryAfter(res)).toBeGreaterThanOrEqual(1)
    expect(retryAfter(res)).toBeLessThanOrEqual(60)
    const all = elements(res.text)
    expect(textOf(parseDocument(res.text))).toContain(SIGN_IN_ERRORS.rate_limited)
    expect(all.find((e) => e.name === 'h1')).toBeDefined()
    expect(all.some((e) => e.name === 'a' && e.attribs.href === '/')).toBe(true)
    expectSecurityHeaders(res, false, '429 page')
    for (const style of all.filter((e) => e.name === 'style')) {
      expect(style.attribs.nonce).toBe(styleNonce(res))
    }
  })

  it('answers the form of the sign-in page with the HTML page, creating nobody', async () => {
    for (let i = 0; i < 3; i++) await limited.anonymous().get('/api/auth/dev-login')
    const name = unique('form-refused')

    const res = await postForm(limited.anonymous(), { userId: name })

    expect(res.status).toBe(429)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(res.headers.getSetCookie()).toEqual([])
    expect(await userNamed(limited, name)).toBeUndefined()
  })

  it('leaves other endpoints alone', async () => {
    const me = await limited.signIn(unique('busy'))
    for (let i = 0; i < 3; i++) await limited.anonymous().get('/api/auth/microsoft')
    expectProblem(await limited.anonymous().get('/api/auth/microsoft'), 429)

    expect((await me.get('/api/user')).status).toBe(200)
    expect((await me.get('/api/topics')).status).toBe(200)
    const created = await me.post('/api/topics', {
      subject: unique('Busy'),
      maxMentees: 1,
      seniorityRequired: ['mid'],
    })
    expect(created.status).toBe(201)
    expect((await limited.anonymous().get('/healthz')).status).toBe(200)
    expect((await limited.anonymous().get('/api/docs')).status).toBe(200)
    expect((await me.get('/api/auth/logout')).status).toBe(302)
  })

  it('ignores X-Forwarded-For without TRUST_PROXY: a forged header does not dodge the limit', async () => {
    const statuses: number[] = []
    for (let i = 1; i <= 5; i++) {
      const res = await limited.anonymous().get('/api/auth/dev-login', {
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
      })
      statuses.push(res.status)
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429])
  })

  it('tells how long until the window ends in Retry-After', async () => {
    for (let i = 0; i < 3; i++) await limited.anonymous().get('/api/auth/dev-login')
    await limited.sql`UPDATE rate_limits SET window_start = window_start - interval '45 seconds'`

    const res = await limited.anonymous().get('/api/auth/dev-login')

    expect(res.status).toBe(429)
    expect(retryAfter(res)).toBeGreaterThanOrEqual(1)
    expect(retryAfter(res)).toBeLessThanOrEqual(15)
  })

  it('allows sign-ins again once the window has passed', async () => {
    for (let i = 0; i < 4; i++) await limited.anonymous().get('/api/auth/dev-login')
    expectProblem(await limited.anonymous().get('/api/auth/dev-login'), 429)

    await limited.sql`UPDATE rate_limits SET window_start = window_start - interval '61 seconds'`

    const statuses: number[] = []
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await limited.anonymous().post('/api/auth/dev-login', { userId: 'ok' })).status,
      )
    }
    expect(statuses).toEqual([200, 200, 200, 429])
  })
})

describe('the sign-in rate limit behind a proxy (TRUST_PROXY=true)', () => {
  let proxied: TestServer

  beforeAll(async () => {
    proxied = await startTestServer({ AUTH_RATE_LIMIT: '3', TRUST_PROXY: 'true' })
  })
  afterAll(async () => {
    await proxied?.stop()
  })

  async function signInFrom(forwardedFor: string): Promise<number> {
    const res = await proxied.anonymous().post(
      '/api/auth/dev-login',
      { userId: 'proxied' },
      {
        headers: { 'x-forwarded-for': forwardedFor },
      },
    )
    return res.status
  }

  it('counts each client address (the last X-Forwarded-For entry) separately', async () => {
    const first: number[] = []
    for (let i = 0; i < 4; i++) first.push(await signInFrom('203.0.113.10'))
    expect(first).toEqual([200, 200, 200, 429])

    expect(await signInFrom('203.0.113.11')).toBe(200)
    expect(await signInFrom('203.0.113.10, 203.0.113.12')).toBe(200)
    expect(await signInFrom('2001:db8::1')).toBe(200)
  })

  it('cannot be dodged by entries a client puts before the one the proxy appends', async () => {
    const statuses: number[] = []
    for (let i = 1; i <= 5; i++) statuses.push(await signInFrom(`10.0.0.${i}, 203.0.113.20`))
    expect(statuses).toEqual([200, 200, 200, 429, 429])
  })
})

// --- housekeeping ------------------------------------------------------------

describe('sweepExpired', () => {
  let swept: TestServer

  beforeAll(async () => {
    swept = await startTestServer()
  })
  afterAll(async () => {
    await swept?.stop()
  })

  it('deletes expired sessions and rate-limit rows older than an hour, and nothing else', async () => {
    const live = await swept.signIn('sweep-live')
    const old = await swept.signIn('sweep-old')
    const gone = await swept.signIn('sweep-gone')
    const justGone = await swept.signIn('sweep-just-gone')
    // Signed in long ago but used lately: not expired, stays.
    await letTimePass(swept, old.user?.id, 20 * DAY_MS)
    await swept.sql`UPDATE sessions SET expires_at = now() + interval '1 day' WHERE user_id = ${old.user?.id ?? ''}`
    await swept.sql`UPDATE sessions SET expires_at = now() - interval '3 days' WHERE user_id = ${gone.user?.id ?? ''}`
    await swept.sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = ${justGone.user?.id ?? ''}`
    await swept.sql`DELETE FROM rate_limits`
    await swept.sql`
      INSERT INTO rate_limits (bucket, window_start, hits) VALUES
        ('sign-in:fresh', now(), 5),
        ('sign-in:half-hour', now() - interval '30 minutes', 2),
        ('sign-in:59-minutes', now() - interval '59 minutes', 1),
        ('sign-in:61-minutes', now() - interval '61 minutes', 7),
        ('sign-in:two-days', now() - interval '2 days', 1)`
    const users = await count(swept, 'users')
    const topics = await swept.sql`SELECT count(*)::int AS n FROM topics`

    const result = await sweepExpired(swept.sql)

    expect(result).toEqual({ sessions: 2, rateLimits: 2 })
    expect(await sessionCount(swept, live.user?.id)).toBe(1)
    expect(await sessionCount(swept, old.user?.id)).toBe(1)
    expect(await sessionCount(swept, gone.user?.id)).toBe(0)
    expect(await sessionCount(swept, justGone.user?.id)).toBe(0)
    const buckets = await swept.sql<{ bucket: string }[]>`
      SELECT bucket FROM rate_limits ORDER BY bucket`
    expect(buckets.map((b) => b.bucket)).toEqual([
      'sign-in:59-minutes',
      'sign-in:fresh',
      'sign-in:half-hour',
    ])
    expect(await count(swept, 'users')).toBe(users)
    expect(await swept.sql`SELECT count(*)::int AS n FROM topics`).toEqual(topics)
    expect((await live.get('/api/user')).status).toBe(200)
    expect((await old.get('/api/user')).status).toBe(200)

    expect(await sweepExpired(swept.sql)).toEqual({ sessions: 0, rateLimits: 0 })
  })
})

/** Whether `node` is `ancestor` or inside it. */
function contains(ancestor: Node, node: Node): boolean {
  let current: Node | null = node
  while (current) {
    if (current === ancestor) return true
    current = current.parent as Node | null
  }
  return false
}
