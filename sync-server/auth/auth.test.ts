import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectProblem, unique } from '../test/api.ts'
import { PRODUCTION_ENV, startTestServer, type TestServer } from '../test/server.ts'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.stop()
})

async function userCount(username: string): Promise<number> {
  const [row] = await server.sql<{ count: number }[]>`
    SELECT count(*)::int AS count FROM users WHERE lower(username) = lower(${username})`
  return row?.count ?? -1
}

describe('GET /api/auth/session', () => {
  it('answers 200 with user null when nobody is signed in, and the user when someone is', async () => {
    const anonymous = await server.anonymous().get('/api/auth/session')
    expect(anonymous.status).toBe(200)
    expect(anonymous.body).toEqual({ user: null })
    const me = await server.signIn(unique('session-reader'))
    const res = await me.get('/api/auth/session')
    expect(res.status).toBe(200)
    expect(res.body.user).toEqual((await me.get('/api/user')).body)
    // Signed out again: null, while GET /api/user says 401.
    await me.get('/api/auth/logout', { headers: { 'sec-fetch-site': 'same-origin' } })
    expect((await me.get('/api/auth/session')).body).toEqual({ user: null })
    expect((await me.get('/api/user')).status).toBe(401)
  })
})

describe('POST /api/auth/dev-login', () => {
  it('creates an unknown username as a non-admin user and signs in', async () => {
    const name = unique('Newcomer')
    const client = server.anonymous()

    const res = await client.post('/api/auth/dev-login', { userId: name })

    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: expect.any(String), username: name, isAdmin: false })
    expect(await userCount(name)).toBe(1)
    const me = await client.get('/api/user')
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({ id: res.body.id, username: name, isAdmin: false })
    // A new user starts with default preferences.
    expect((await client.get('/api/user/notification-preferences')).status).toBe(200)
  })

  it('signs in as an existing user by username, whatever its case, without a duplicate', async () => {
    const name = unique('Existing')
    const first = await server.signIn(name)

    const again = server.anonymous()
    const res = await again.post('/api/auth/dev-login', { userId: name.toLowerCase() })

    expect(res.status).toBe(200)
    expect(res.body.id).toBe(first.user?.id)
    expect(res.body.username).toBe(name)
    expect(await userCount(name)).toBe(1)
  })

  it('signs in as an existing user by id', async () => {
    const name = unique('by-id')
    const first = await server.signIn(name)
    const id = first.user?.id ?? ''

    for (const userId of [id, id.toUpperCase()]) {
      const client = server.anonymous()
      const res = await client.post('/api/auth/dev-login', { userId })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ id, username: name })
      expect((await client.get('/api/user')).body.id).toBe(id)
    }
  })

  it('answers 404 for an id that names nobody, and creates no user', async () => {
    const client = server.anonymous()
    const res = await client.post('/api/auth/dev-login', {
      userId: '00000000-0000-4000-8000-000000000000',
    })
    expect(res.status).toBe(404)
    expect(res.body.detail).toBe('User not found')
    expect(await userCount('00000000-0000-4000-8000-000000000000')).toBe(0)
    expect((await client.get('/api/user')).status).toBe(401)
  })

  it('sets an HttpOnly, SameSite=Lax session cookie without Secure outside production', async () => {
    const res = await server.anonymous().post('/api/auth/dev-login', { userId: unique('cookie') })

    const cookie = res.headers.get('set-cookie') ?? ''
    expect(cookie).toMatch(/^pairwise_session=[^;]{20,}/)
    expect(cookie).toMatch(/;\s*HttpOnly/i)
    expect(cookie).toMatch(/;\s*SameSite=Lax/i)
    expect(cookie).toMatch(/;\s*Path=\//i)
    expect(cookie).not.toMatch(/;\s*Secure/i)
    // Only a hash of the session id is stored.
    const id = cookie.split(';')[0]?.split('=')[1] ?? ''
    const [row] = await server.sql<{ count: number }[]>`
      SELECT count(*)::int AS count FROM sessions WHERE id_hash = ${id}`
    expect(row?.count).toBe(0)
  })

  it.each([
    ['a username with spaces and punctuation', { userId: 'bad name!' }, 'userId'],
    ['a username with a slash', { userId: 'a/b' }, 'userId'],
    ['a username that is too long', { userId: 'x'.repeat(65) }, 'userId'],
    ['a missing userId', {}, 'userId'],
    ['an empty userId', { userId: '   ' }, 'userId'],
    ['a userId that is not text', { userId: 42 }, 'userId'],
    ['an unknown field', { userId: 'fine', admin: true }, ''],
  ])('refuses %s with 400 naming the field, and creates nobody', async (_name, body, path) => {
    const client = server.anonymous()
    const before = await server.sql<{ count: number }[]>`SELECT count(*)::int AS count FROM users`
    const res = await client.post('/api/auth/dev-login', body)
    expectProblem(res, 400)
    expect(res.body.errors).toContainEqual(expect.objectContaining({ path }))
    expect(res.headers.get('set-cookie')).toBeNull()
    const after = await server.sql<{ count: number }[]>`SELECT count(*)::int AS count FROM users`
    expect(after[0]?.count).toBe(before[0]?.count)
  })

  it('refuses a body that is not JSON with 400', async () => {
    const res = await server.anonymous().post('/api/auth/dev-login', undefined, {
      raw: '{"userId":',
      headers: { 'content-type': 'application/json' },
    })
    expectProblem(res, 400, /JSON/)
  })
})

describe('GET /api/auth/logout', () => {
  it('ends the session, redirects to / and the old cookie stops working', async () => {
    const client = await server.signIn(unique('leaver'))
    const oldCookie = client.cookie
    expect((await client.get('/api/user')).status).toBe(200)

    const res = await client.get('/api/auth/logout')

    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/')
    expect(res.headers.get('set-cookie')).toMatch(/pairwise_session=;/)
    expect(client.cookie).toBeUndefined()
    client.cookie = oldCookie
    expectProblem(await client.get('/api/user'), 401)
  })

  it('leaves other sessions of the same user signed in', async () => {
    const name = unique('two-devices')
    const laptop = await server.signIn(name)
    const phone = await server.signIn(name)

    await laptop.get('/api/auth/logout')

    expect((await phone.get('/api/user')).status).toBe(200)
  })

  it('redirects to / without a session too', async () => {
    const res = await server.anonymous().get('/api/auth/logout')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/')
  })
})

describe('sessions', () => {
  it('answers 401 once a session has expired', async () => {
    const client = await server.signIn(unique('expiring'))
    expect((await client.get('/api/user')).status).toBe(200)

    await server.sql`
      UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE user_id = ${client.user?.id ?? ''}`

    expectProblem(await client.get('/api/user'), 401, /not signed in/)
    expectProblem(
      await client.post('/api/topics', { subject: 'x', maxMentees: 1, seniorityRequired: ['mid'] }),
      401,
    )
  })

  it('answers 401 for an unknown, tampered or oversized session cookie', async () => {
    const client = await server.signIn(unique('tamper'))
    for (const cookie of [
      `${client.cookie}x`,
      'pairwise_session=not-a-session',
      `pairwise_session=${'a'.repeat(5000)}`,
      'pairwise_session=',
    ]) {
      const forged = server.anonymous()
      forged.cookie = cookie
      expectProblem(await forged.get('/api/user'), 401)
    }
  })

  it('answers 401 when the user of a session was deleted', async () => {
    const name = unique('deleted')
    const client = await server.signIn(name)
    await server.sql`DELETE FROM users WHERE username = ${name}`
    expectProblem(await client.get('/api/user'), 401)
  })
})

describe('ADMIN_USERNAMES', () => {
  let adminServer: TestServer

  beforeAll(async () => {
    adminServer = await startTestServer({ ADMIN_USERNAMES: 'chief, Deputy' })
  })
  afterAll(async () => {
    await adminServer?.stop()
  })

  it('makes a listed user an administrator when they sign in', async () => {
    const chief = await adminServer.signIn('chief')
    expect(chief.user?.isAdmin).toBe(true)
    expect((await chief.get('/api/user')).body.isAdmin).toBe(true)
  })

  it('matches listed names regardless of case and leaves others alone', async () => {
    const deputy = await adminServer.signIn('DEPUTY')
    expect((await deputy.get('/api/user')).body.isAdmin).toBe(true)
    const plain = await adminServer.signIn('chieftain')
    expect((await plain.get('/api/user')).body.isAdmin).toBe(false)
  })

  it('promotes an existing user on their next sign-in', async () => {
    await adminServer.sql`UPDATE users SET is_admin = false WHERE lower(username) = 'chief'`
    const chief = await adminServer.signIn('chief')
    expect((await chief.get('/api/user')).body.isAdmin).toBe(true)
  })
})

describe('NODE_ENV=production', () => {
  let production: TestServer

  beforeAll(async () => {
    production = await startTestServer(PRODUCTION_ENV)
  })
  afterAll(async () => {
    await production?.stop()
  })

  it('answers 404 to dev-login and creates no user or session', async () => {
    const client = production.anonymous()
    const res = await client.post('/api/auth/dev-login', { userId: 'intruder' })

    expectProblem(res, 404)
    expect(res.headers.get('set-cookie')).toBeNull()
    const [row] = await production.sql<{ count: number }[]>`
      SELECT count(*)::int AS count FROM users WHERE username = 'intruder'`
    expect(row?.count).toBe(0)
    expectProblem(await client.get('/api/user'), 401)
  })
})
