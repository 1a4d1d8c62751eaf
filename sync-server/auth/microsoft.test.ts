import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { SIGN_IN_ERRORS } from '../../shared/sign-in.ts'
import { expectConsole } from '../../test-support/console-guard.ts'
import { expectProblem, unique } from '../test/api.ts'
import { type FakeAccount, FakeMicrosoft, graphError } from '../test/fake-microsoft.ts'
import {
  type Answer,
  type Client,
  PRODUCTION_ENV,
  startTestServer,
  type TestServer,
} from '../test/server.ts'
import { flowErrorCode, providerErrorCode } from './microsoft.ts'
import { usernameFromPrincipalName } from './provision.ts'

// The whole OAuth 2.0 code flow against a Microsoft stood in for inside the
// test process (FakeMicrosoft intercepts fetch to login.microsoft.com and
// graph.microsoft.com): the browser's two requests are made by the test client.

const ENTRA = {
  ENTRA_CLIENT_ID: 'client-1d',
  ENTRA_CLIENT_SECRET: 's3cret',
  ENTRA_TENANT_ID: 'contoso.onmicrosoft.com',
}
const PHOTO = { bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]), type: 'image/jpeg' }

let server: TestServer
let microsoft: FakeMicrosoft
// Failed sign-ins are logged for the operator: the tests that fail one allow that warning
// (test-support/console-guard.ts keeps it from printing) and may read it.
const SIGN_IN_FAILED = /^Microsoft sign-in failed/

beforeAll(async () => {
  server = await startTestServer({ ...ENTRA, ADMIN_USERNAMES: 'chief.admin' })
  microsoft = new FakeMicrosoft({
    clientId: ENTRA.ENTRA_CLIENT_ID,
    clientSecret: ENTRA.ENTRA_CLIENT_SECRET,
    // Without PUBLIC_URL the callback is on the address the browser used.
    redirectUri: `${server.url}/api/auth/microsoft`,
  })
})
afterEach(() => {
  microsoft.token = undefined
  microsoft.me = undefined
  microsoft.photo = undefined
  microsoft.requests.length = 0
})
afterAll(async () => {
  microsoft?.restore()
  await server?.stop()
})

function account(overrides: Partial<FakeAccount> = {}): FakeAccount {
  const name = unique('jane.doe')
  return {
    id: crypto.randomUUID(),
    userPrincipalName: `${name}@contoso.com`,
    displayName: 'Jane Doe',
    givenName: 'Jane',
    surname: 'Doe',
    mail: `${name}@contoso.com`,
    photo: PHOTO,
    ...overrides,
  }
}

/** The browser's first request: answers the state Microsoft is given and the redirect. */
async function startSignIn(client: Client, query = ''): Promise<{ state: string; res: Answer }> {
  const res = await client.get(`/api/auth/microsoft${query}`, { headers: { accept: 'text/html' } })
  expect(res.status).toBe(302)
  const location = new URL(res.headers.get('location') ?? '')
  expect(location.origin).toBe('https://login.microsoft.com')
  return { state: location.searchParams.get('state') ?? '', res }
}

/** Both requests of a sign-in; answers the callback's answer. */
async function signInWithMicrosoft(client: Client, who: FakeAccount, query = ''): Promise<Answer> {
  const { state } = await startSignIn(client, query)
  const code = microsoft.issueCode(who)
  return client.get(`/api/auth/microsoft?code=${code}&state=${encodeURIComponent(state)}`, {
    headers: { accept: 'text/html' },
  })
}

async function usersWithOid(oid: string) {
  return server.sql<{ username: string; fullName: string; email: string | null }[]>`
    SELECT username, full_name AS "fullName", email FROM users WHERE entra_oid = ${oid}`
}

async function sessionCount(): Promise<number> {
  const [row] = await server.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM sessions`
  return row?.n ?? -1
}

/** A failed sign-in ends on the sign-in screen with the code, and with no session. */
function expectSignInError(res: Answer, code: keyof typeof SIGN_IN_ERRORS, client: Client): void {
  expect(res.status).toBe(302)
  expect(res.headers.get('location')).toBe(`/?sign_in_error=${code}`)
  expect(res.text).toBe('')
  expect(client.jar.has('pairwise_session')).toBe(false)
}

describe('sign-in with Microsoft', () => {
  it('sends the browser to the tenant authorize endpoint with the code flow parameters', async () => {
    const client = server.anonymous()
    const { res, state } = await startSignIn(client)

    const location = new URL(res.headers.get('location') ?? '')
    expect(location.pathname).toBe(`/${ENTRA.ENTRA_TENANT_ID}/oauth2/v2.0/authorize`)
    expect(location.searchParams.get('response_type')).toBe('code')
    expect(location.searchParams.get('client_id')).toBe(ENTRA.ENTRA_CLIENT_ID)
    expect(location.searchParams.get('redirect_uri')).toBe(`${server.url}/api/auth/microsoft`)
    expect(location.searchParams.get('scope')?.split(' ')).toEqual(
      expect.arrayContaining(['openid', 'profile', 'email', 'User.Read']),
    )
    expect(state).toMatch(/^[A-Za-z0-9_-]{40,}$/)
    expect(client.jar.get('state')).toBe(state)
    expect(location.searchParams.toString()).not.toContain(ENTRA.ENTRA_CLIENT_SECRET)
    expect(microsoft.requests).toHaveLength(0)
  })

  it('gives every sign-in its own state', async () => {
    const first = await startSignIn(server.anonymous())
    const second = await startSignIn(server.anonymous())
    expect(first.state).not.toBe(second.state)
  })

  it('creates the user on the first sign-in and starts a session', async () => {
    const client = server.anonymous()
    const who = account({ userPrincipalName: 'Ada.Lovelace@contoso.com', displayName: 'Ada L.' })

    const res = await signInWithMicrosoft(client, who)

    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/')
    const me = await client.get('/api/user')
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({
      username: 'ada.lovelace',
      full_name: 'Ada L.',
      isAdmin: false,
      profileImage: `data:image/jpeg;base64,${Buffer.from(PHOTO.bytes).toString('base64')}`,
    })
    expect(await usersWithOid(who.id)).toEqual([
      { username: 'ada.lovelace', fullName: 'Ada L.', email: who.mail },
    ])
    // Default notification preferences exist for the new user.
    expect((await client.get('/api/user/notification-preferences')).status).toBe(200)
    // The code was exchanged once, with the client's credentials, then Graph was asked.
    const [token] = microsoft.seen('token')
    const form = new URLSearchParams(token?.body)
    expect(form.get('client_secret')).toBe(ENTRA.ENTRA_CLIENT_SECRET)
    expect(microsoft.seen('me')).toHaveLength(1)
    expect(microsoft.seen('me')[0]?.authorization).toMatch(/^Bearer token-/)
  })

  it('clears the state cookie after the callback, so a state works once', async () => {
    expectConsole('warn', SIGN_IN_FAILED)
    const client = server.anonymous()
    const { state } = await startSignIn(client)
    const code = microsoft.issueCode(account())
    await client.get(`/api/auth/microsoft?code=${code}&state=${state}`)
    expect(client.jar.has('state')).toBe(false)

    const replay = await client.get(
      `/api/auth/microsoft?code=${microsoft.issueCode(account())}&state=${state}`,
    )
    expect(replay.headers.get('location')).toBe('/?sign_in_error=state')
  })

  it('signs a returning user into the same account and refreshes name and e-mail', async () => {
    const who = account()
    await signInWithMicrosoft(server.anonymous(), who)
    const [before] = await usersWithOid(who.id)

    const client = server.anonymous()
    const res = await signInWithMicrosoft(client, {
      ...who,
      displayName: 'Jane Doe-Smith',
      mail: 'jane.smith@contoso.com',
      userPrincipalName: 'jane.smith@contoso.com',
    })

    expect(res.headers.get('location')).toBe('/')
    expect(await usersWithOid(who.id)).toEqual([
      // The username stays: profile links use it.
      { username: before?.username, fullName: 'Jane Doe-Smith', email: 'jane.smith@contoso.com' },
    ])
    expect((await client.get('/api/user')).body.username).toBe(before?.username)
  })

  it('never takes over an existing user of the same name: the new account gets the next free one', async () => {
    const taken = unique('grace.hopper')
    await server.signIn(taken)
    await server.signIn(`${taken}2`)
    const who = account({ userPrincipalName: `${taken.toUpperCase()}@contoso.com` })

    const client = server.anonymous()
    await signInWithMicrosoft(client, who)

    expect((await client.get('/api/user')).body.username).toBe(`${taken}3`)
    const [row] = await server.sql<{ oid: string | null }[]>`
      SELECT entra_oid AS oid FROM users WHERE username = ${taken}`
    expect(row?.oid).toBeNull()
  })

  it('keeps the stored photo when Graph cannot give it, and clears it when the account has none', async () => {
    const who = account()
    const client = server.anonymous()
    await signInWithMicrosoft(client, who)

    microsoft.photo = graphError(503, 'ServiceUnavailable')
    await signInWithMicrosoft(server.anonymous(), who)
    expect((await client.get('/api/user')).body.profileImage).toMatch(/^data:image\/jpeg;base64,/)

    microsoft.photo = undefined
    await signInWithMicrosoft(server.anonymous(), { ...who, photo: undefined })
    expect((await client.get('/api/user')).body.profileImage).toBeNull()
  })

  it('ignores a photo that is not an image or is too large, and still signs in', async () => {
    microsoft.photo = { status: 200, body: '<svg onload=alert(1)>', type: 'image/svg+xml' }
    const client = server.anonymous()
    await signInWithMicrosoft(client, account())
    expect((await client.get('/api/user')).body.profileImage).toBeNull()

    microsoft.photo = { status: 200, body: 'x'.repeat(200_000), type: 'image/jpeg' }
    const other = server.anonymous()
    await signInWithMicrosoft(other, account())
    expect((await other.get('/api/user')).body.profileImage).toBeNull()
  })

  it('returns to the page the person wanted, and only to a page of this site', async () => {
    const client = server.anonymous()
    const res = await signInWithMicrosoft(client, account(), '?returnTo=%2Ftopics%3Fq%3D1')
    expect(res.headers.get('location')).toBe('/topics?q=1')
    expect(client.jar.has('pairwise_return_to')).toBe(false)

    for (const evil of ['//evil.example', 'https://evil.example/', '/\\evil.example']) {
      const other = server.anonymous()
      const answer = await signInWithMicrosoft(
        other,
        account(),
        `?returnTo=${encodeURIComponent(evil)}`,
      )
      expect(answer.headers.get('location')).toBe('/')
    }
  })

  it('makes a user named in ADMIN_USERNAMES an administrator', async () => {
    const client = server.anonymous()
    await signInWithMicrosoft(client, account({ userPrincipalName: 'Chief.Admin@contoso.com' }))
    expect((await client.get('/api/user')).body).toMatchObject({
      username: 'chief.admin',
      isAdmin: true,
    })
  })

  it('gives a fresh session id on sign-in and ends the one the browser had', async () => {
    const client = await server.signIn(unique('switcher'))
    const before = client.jar.get('pairwise_session')
    await signInWithMicrosoft(client, account())
    const after = client.jar.get('pairwise_session')
    expect(after).toBeDefined()
    expect(after).not.toBe(before)

    const stale = server.anonymous()
    stale.cookie = `pairwise_session=${before}`
    expectProblem(await stale.get('/api/user'), 401)
  })
})

describe('sign-in failures end on the sign-in screen with a reason and no session', () => {
  beforeEach(() => expectConsole('warn', SIGN_IN_FAILED))

  it('cancelled: Microsoft sends the person back with access_denied', async () => {
    const client = server.anonymous()
    const { state } = await startSignIn(client)
    const users = await server.sql`SELECT count(*) FROM users`
    const sessions = await sessionCount()

    const res = await client.get(
      `/api/auth/microsoft?error=access_denied&error_description=${encodeURIComponent(
        'AADSTS65004: User declined to consent to access the app.',
      )}&state=${state}`,
    )

    expectSignInError(res, 'cancelled', client)
    expect(client.jar.has('state')).toBe(false)
    expect(microsoft.requests).toHaveLength(0)
    expect(await server.sql`SELECT count(*) FROM users`).toEqual(users)
    expect(await sessionCount()).toBe(sessions)
  })

  it('not allowed: the account is not assigned to the application', async () => {
    const client = server.anonymous()
    await startSignIn(client)
    const res = await client.get(
      `/api/auth/microsoft?error=access_denied&error_description=${encodeURIComponent(
        'AADSTS50105: The signed in user is not assigned to a role for the application.',
      )}`,
    )
    expectSignInError(res, 'not_allowed', client)
  })

  it('state mismatch: a callback whose state is not the one this browser was given', async () => {
    const client = server.anonymous()
    await startSignIn(client)
    const who = account()

    const res = await client.get(
      `/api/auth/microsoft?code=${microsoft.issueCode(who)}&state=forged`,
    )

    expectSignInError(res, 'state', client)
    expect(microsoft.seen('token')).toHaveLength(0)
    expect(await usersWithOid(who.id)).toEqual([])
  })

  it('state mismatch: a callback in a browser that never started a sign-in (login CSRF)', async () => {
    const attacker = server.anonymous()
    const { state } = await startSignIn(attacker)
    const victim = server.anonymous()

    const res = await victim.get(
      `/api/auth/microsoft?code=${microsoft.issueCode(account())}&state=${state}`,
    )

    expectSignInError(res, 'state', victim)
    expect(microsoft.seen('token')).toHaveLength(0)
  })

  it('token failure: Microsoft refuses to exchange the code', async () => {
    microsoft.token = {
      status: 400,
      body: { error: 'invalid_grant', error_description: 'AADSTS54005: code already redeemed' },
    }
    const client = server.anonymous()
    const who = account()
    const res = await signInWithMicrosoft(client, who)

    expectSignInError(res, 'token', client)
    expect(microsoft.seen('me')).toHaveLength(0)
    expect(await usersWithOid(who.id)).toEqual([])
  })

  it('token failure: a code that is wrong for this client', async () => {
    const client = server.anonymous()
    const { state } = await startSignIn(client)
    const res = await client.get(`/api/auth/microsoft?code=made-up&state=${state}`)
    expectSignInError(res, 'token', client)
  })

  it('Graph failure: the profile cannot be read', async () => {
    microsoft.me = graphError(500, 'generalException')
    const client = server.anonymous()
    const who = account()
    const res = await signInWithMicrosoft(client, who)

    expectSignInError(res, 'profile', client)
    expect(await usersWithOid(who.id)).toEqual([])
    expect(microsoft.seen('photo')).toHaveLength(0)
  })

  it('Graph failure: a profile without an id', async () => {
    microsoft.me = { status: 200, body: { displayName: 'Nobody' } }
    const client = server.anonymous()
    expectSignInError(await signInWithMicrosoft(client, account()), 'profile', client)
  })

  it('provider down: the token endpoint cannot be reached', async () => {
    microsoft.token = 'network'
    const client = server.anonymous()
    expectSignInError(await signInWithMicrosoft(client, account()), 'unavailable', client)
  })

  it('provider down: an outage page instead of JSON', async () => {
    microsoft.token = { status: 503, body: '<html>Service Unavailable</html>', type: 'text/html' }
    const client = server.anonymous()
    expectSignInError(await signInWithMicrosoft(client, account()), 'unavailable', client)
  })

  it('provider down: Graph cannot be reached', async () => {
    microsoft.me = 'network'
    const client = server.anonymous()
    expectSignInError(await signInWithMicrosoft(client, account()), 'unavailable', client)
  })

  it('logs why for the operator, without the secret, the code or the tokens', async () => {
    const warn = vi.mocked(console.warn)
    microsoft.me = graphError(500, 'generalException')
    const client = server.anonymous()
    const { state } = await startSignIn(client)
    const code = microsoft.issueCode(account())
    await client.get(`/api/auth/microsoft?code=${code}&state=${state}`)

    expect(warn).toHaveBeenCalledTimes(1)
    const logged = warn.mock.calls.flat().join(' ')
    expect(logged).toContain('Microsoft sign-in failed (profile)')
    for (const secret of [ENTRA.ENTRA_CLIENT_SECRET, code, state, 'token-']) {
      expect(logged).not.toContain(secret)
    }
  })

  it('every reason has a message for the sign-in screen', () => {
    for (const message of Object.values(SIGN_IN_ERRORS)) {
      expect(message).toMatch(/^[A-Z].+\.$/)
      expect(message).not.toMatch(/error|exception|undefined/i)
    }
  })
})

describe('NODE_ENV=production', () => {
  let production: TestServer
  let productionMicrosoft: FakeMicrosoft

  beforeAll(async () => {
    microsoft.restore()
    production = await startTestServer({ ...PRODUCTION_ENV })
    productionMicrosoft = new FakeMicrosoft({
      clientId: PRODUCTION_ENV.ENTRA_CLIENT_ID,
      clientSecret: PRODUCTION_ENV.ENTRA_CLIENT_SECRET,
      redirectUri: `${PRODUCTION_ENV.PUBLIC_URL}/api/auth/microsoft`,
    })
  })
  afterAll(async () => {
    productionMicrosoft?.restore()
    await production?.stop()
  })

  it('uses PUBLIC_URL for the callback and sets a __Host-, Secure, HttpOnly, Lax session cookie', async () => {
    const client = production.anonymous()
    const start = await client.get('/api/auth/microsoft')
    const location = new URL(start.headers.get('location') ?? '')
    expect(location.searchParams.get('redirect_uri')).toBe(
      'https://pairwise.example.com/api/auth/microsoft',
    )
    const state = location.searchParams.get('state')
    const code = productionMicrosoft.issueCode(account())

    const res = await client.get(`/api/auth/microsoft?code=${code}&state=${state}`)

    expect(res.headers.get('location')).toBe('/')
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('__Host-pairwise_session='))
    expect(cookie).toBeDefined()
    const attributes = cookie?.split(';').map((a) => a.trim().toLowerCase()) ?? []
    expect(attributes).toEqual(
      expect.arrayContaining(['path=/', 'httponly', 'secure', 'samesite=lax']),
    )
    expect(attributes.some((a) => a.startsWith('domain='))).toBe(false)
    expect((await client.get('/api/user')).status).toBe(200)
  })
})

describe('mapping Microsoft answers to reasons', () => {
  it.each([
    ['access_denied', 'AADSTS65004: User declined', 'cancelled'],
    ['access_denied', 'AADSTS50105: not assigned', 'not_allowed'],
    ['interaction_required', 'AADSTS53003: blocked by Conditional Access', 'not_allowed'],
    ['temporarily_unavailable', '', 'unavailable'],
    ['server_error', '', 'unavailable'],
    ['invalid_request', 'AADSTS90014', 'failed'],
  ] as const)('%s (%s) is %s', (error, description, code) => {
    expect(providerErrorCode(error, description)).toBe(code)
  })

  it('maps errors that are not the library’s to failed', () => {
    expect(flowErrorCode(new Error('boom'))).toBe('failed')
    expect(flowErrorCode('x')).toBe('failed')
  })
})

describe('usernameFromPrincipalName', () => {
  it.each([
    ['Jane.Doe@contoso.com', 'jane.doe'],
    ['ada_example.com#EXT#@contoso.onmicrosoft.com', 'ada_example.com'],
    ["o'brien+test@contoso.com", 'obrientest'],
    ['.dots.@contoso.com', 'dots'],
    ['@contoso.com', 'user'],
    [null, 'user'],
    [`${'a'.repeat(100)}@x.com`, 'a'.repeat(60)],
  ])('%s gives %s', (upn, username) => {
    expect(usernameFromPrincipalName(upn)).toBe(username)
  })
})
