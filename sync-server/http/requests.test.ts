import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectProblem, signInAdmin, topicCount, unique } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'req-admin')
})
afterAll(async () => {
  await server?.stop()
})

const JSON_TYPE = { 'content-type': 'application/json' }
const VALID_TOPIC = { subject: 'Valid', maxMentees: 1, seniorityRequired: ['junior'] }

describe('request bodies', () => {
  it('refuses malformed JSON with 400', async () => {
    const me = await server.signIn(unique('body'))
    for (const raw of ['{', '{"subject": "x",}', "{'subject': 'x'}", 'subject=x', '\u0000']) {
      expectProblem(
        await me.post('/api/topics', undefined, { raw, headers: JSON_TYPE }),
        400,
        /not valid JSON/,
      )
    }
  })

  it('refuses a JSON array, number, string, boolean or null where an object is expected', async () => {
    const me = await server.signIn(unique('body'))
    for (const raw of ['[]', '[{"subject":"x"}]', '42', '"x"', 'true', 'null']) {
      const res = await me.post('/api/topics', undefined, { raw, headers: JSON_TYPE })
      expectProblem(res, 400)
      expect(res.body.errors?.length).toBeGreaterThan(0)
    }
  })

  it('refuses wrong types with 400 and lists every offending path', async () => {
    const me = await server.signIn(unique('body'))
    const res = await me.post('/api/topics', {
      subject: 42,
      maxMentees: 'two',
      seniorityRequired: 'junior',
      location: 'mars',
      interests: [1],
    })

    expectProblem(res, 400)
    const paths = res.body.errors.map((e: { path: string }) => e.path)
    expect(paths).toEqual(
      expect.arrayContaining([
        'subject',
        'maxMentees',
        'seniorityRequired',
        'location',
        'interests.0',
      ]),
    )
    for (const error of res.body.errors) expect(error.message).toEqual(expect.any(String))
  })

  it('uses the spec messages for a missing subject and seniority', async () => {
    const me = await server.signIn(unique('body'))
    const res = await me.post('/api/topics', {
      subject: '  ',
      maxMentees: 1,
      seniorityRequired: [],
    })
    expectProblem(res, 400)
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'subject', message: 'Subject is required' },
        { path: 'seniorityRequired', message: 'At least one seniority level is required' },
      ]),
    )
  })

  it('refuses a form-encoded body with 415 and creates nothing', async () => {
    const me = await server.signIn(unique('body'))
    const subject = unique('Form topic')
    const res = await me.post('/api/topics', undefined, {
      raw: `subject=${subject}&maxMentees=1&seniorityRequired=junior`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expectProblem(res, 415, /JSON/)
    expect(await topicCount(server, subject)).toBe(0)
  })
})

describe('BODY_LIMIT_BYTES', () => {
  let small: TestServer
  let me: Client

  beforeAll(async () => {
    small = await startTestServer({ BODY_LIMIT_BYTES: '1024' })
    me = await small.signIn('limited')
  })
  afterAll(async () => {
    await small?.stop()
  })

  it('refuses a 5 KB body with 413 problem+json and stores nothing', async () => {
    const subject = 'x'.repeat(5 * 1024)
    const res = await me.post('/api/topics', { ...VALID_TOPIC, subject })

    expectProblem(res, 413, /1024 bytes/)
    const [row] = await small.sql<{ count: number }[]>`SELECT count(*)::int AS count FROM topics`
    expect(row?.count).toBe(0)
  })

  it('refuses a 5 KB streamed body that has no Content-Length with 413', async () => {
    const payload = new TextEncoder().encode(JSON.stringify({ subject: 'y'.repeat(5 * 1024) }))
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(payload)
        controller.close()
      },
    })
    const res = await fetch(`${small.url}/api/topics`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { ...JSON_TYPE, cookie: me.cookie ?? '' },
    } as RequestInit & { duplex: 'half' })
    expect(res.status).toBe(413)
    expect(res.headers.get('content-type')).toMatch(/problem\+json/)
  })

  it('accepts a body under the limit', async () => {
    const res = await me.post('/api/topics', { ...VALID_TOPIC, subject: 'z'.repeat(150) })
    expect(res.status).toBe(201)
  })
})

describe('unknown paths and health', () => {
  it('answers 404 problem+json for an unknown /api path, signed in or not', async () => {
    const me = await server.signIn(unique('lost'))
    expectProblem(await me.get('/api/nothing-here'), 404, /no API endpoint/)
    expectProblem(await server.anonymous().get('/api/topics/x/y/z'), 404)
    expectProblem(await me.post('/api/nothing-here', {}), 404)
  })

  it('answers 405 problem+json with Allow for a known path under another method', async () => {
    const me = await server.signIn(unique('wrong-method'))
    const res = await me.request('DELETE', '/api/topics')
    expectProblem(res, 405, /does not take DELETE/)
    expect(res.headers.get('allow')).toBe('GET, POST, HEAD')
    expect((await me.get('/api/topics')).status).toBe(200)
  })

  it('GET /healthz answers {status: "ok"}', async () => {
    const res = await server.anonymous().get('/healthz')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'ok' })
  })
})

describe('cache-control', () => {
  it('marks API answers no-store: data, errors and not-found', async () => {
    const me = await server.signIn(unique('cache'))
    for (const res of [
      await me.get('/api/user'),
      await me.get('/api/topics'),
      await me.get('/api/nothing-here'),
      await server.anonymous().get('/api/user'),
      await me.post('/api/topics', { ...VALID_TOPIC, subject: unique('Cache') }),
      await me.post('/api/topics', {}),
    ]) {
      expect(res.headers.get('cache-control'), `${res.status} ${res.text}`).toBe('no-store')
    }
  })

  it('marks middleware refusals and idempotent replays no-store too', async () => {
    const me = await server.signIn(unique('cache'))
    const key = { 'Idempotency-Key': unique('cache-key') }
    const body = { ...VALID_TOPIC, subject: unique('Cache replay') }
    await me.post('/api/topics', body, { headers: key })
    const answers = {
      replay: await me.post('/api/topics', body, { headers: key }),
      crossSite: await me.post('/api/topics', body, {
        headers: { 'sec-fetch-site': 'cross-site' },
      }),
      badKey: await me.post('/api/topics', body, {
        headers: { 'Idempotency-Key': 'k'.repeat(300) },
      }),
    }
    for (const [name, res] of Object.entries(answers)) {
      expect(res.headers.get('cache-control'), name).toBe('no-store')
    }
  })
})

describe('CSRF: cross-site mutations', () => {
  it('refuses a POST whose Origin is another site with 403 and applies nothing', async () => {
    const me = await server.signIn(unique('csrf'))
    const subject = unique('Evil topic')
    const res = await me.post(
      '/api/topics',
      { ...VALID_TOPIC, subject },
      { headers: { origin: 'https://evil.example' } },
    )
    expectProblem(res, 403, /another site/)
    expect(await topicCount(server, subject)).toBe(0)
  })

  it('refuses Sec-Fetch-Site: cross-site with 403, also on PATCH', async () => {
    const me = await server.signIn(unique('csrf'))
    const name = me.user?.username ?? ''
    const site = { 'sec-fetch-site': 'cross-site' }
    expectProblem(await me.post('/api/topics', VALID_TOPIC, { headers: site }), 403)
    expectProblem(await me.patch(`/api/users/${name}`, { bio: 'pwned' }, { headers: site }), 403)
    expect((await me.get('/api/user')).body.bio).toBe('')
  })

  it('refuses a cross-site form post (simple request) with 403', async () => {
    const me = await server.signIn(unique('csrf'))
    const simpleRequests: Record<string, string>[] = [
      { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      { 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site' },
      { 'content-type': 'multipart/form-data; boundary=x', origin: 'null' },
    ]
    for (const headers of simpleRequests) {
      expectProblem(await me.post('/api/topics', undefined, { raw: 'a=b', headers }), 403)
    }
  })

  it('refuses a cross-site dev-login (login CSRF) with 403', async () => {
    const res = await server
      .anonymous()
      .post(
        '/api/auth/dev-login',
        { userId: 'req-admin' },
        { headers: { origin: 'https://evil.example' } },
      )
    expectProblem(res, 403)
    expect(res.headers.get('set-cookie')).toBeNull()
  })

  it("allows an Origin matching the server's host and same-origin fetch metadata", async () => {
    const me = await server.signIn(unique('csrf'))
    const sameOrigin = await me.post(
      '/api/topics',
      { ...VALID_TOPIC, subject: unique('Same origin') },
      { headers: { origin: server.url } },
    )
    expect(sameOrigin.status).toBe(201)
    for (const site of ['same-origin', 'none']) {
      const res = await me.post(
        '/api/topics',
        { ...VALID_TOPIC, subject: unique('Fetch metadata') },
        { headers: { 'sec-fetch-site': site } },
      )
      expect(res.status, site).toBe(201)
    }
  })

  it('lets cross-site reads through: GET is not a mutation', async () => {
    const me = await server.signIn(unique('csrf'))
    const res = await me.get('/api/user', { headers: { origin: 'https://evil.example' } })
    expect(res.status).toBe(200)
  })
})

type Fixture = {
  mentor: Client
  mentee: Client
  proposedId: string
  approvedId: string
  applicationId: string
  startedId: string
  concludedId: string
  notificationId: string
}

/** One of everything a mutation route can name, so bodies reach validation. */
async function fixture(): Promise<Fixture> {
  const mentor = await server.signIn(unique('fz-mentor'))
  const mentee = await server.signIn(unique('fz-mentee'))
  const create = async () => {
    const res = await mentor.post('/api/topics', { ...VALID_TOPIC, maxMentees: 2 })
    expect(res.status).toBe(201)
    return res.body.id as string
  }
  const approve = async (id: string) => {
    expect(
      (await admin.post(`/api/admin/topics/${id}/review`, { status: 'approved' })).status,
    ).toBe(200)
  }
  const proposedId = await create()
  const approvedId = await create()
  const startedId = await create()
  const concludedId = await create()
  for (const id of [approvedId, startedId, concludedId]) await approve(id)
  const application = await mentee.post(`/api/topics/${approvedId}/apply`)
  const accepted = await mentee.post(`/api/topics/${concludedId}/apply`)
  await mentor.patch(`/api/applications/${accepted.body.id}`, { status: 'accepted' })
  for (const id of [startedId, concludedId]) await mentor.post(`/api/topics/${id}/start`)
  await mentor.post(`/api/topics/${concludedId}/conclude`, { mentorFeedback: 'Done' })
  const notes = await mentor.get('/api/notifications')
  return {
    mentor,
    mentee,
    proposedId,
    approvedId,
    applicationId: application.body.id,
    startedId,
    concludedId,
    notificationId: notes.body[0].id,
  }
}

type Route = {
  name: string
  method: string
  path: (f: Fixture) => string
  as: (f: Fixture) => Client
}

const ROUTES: Route[] = [
  {
    name: 'dev-login',
    method: 'POST',
    path: () => '/api/auth/dev-login',
    as: () => server.anonymous(),
  },
  { name: 'create topic', method: 'POST', path: () => '/api/topics', as: (f) => f.mentor },
  {
    name: 'edit topic',
    method: 'PATCH',
    path: (f) => `/api/topics/${f.proposedId}`,
    as: (f) => f.mentor,
  },
  {
    name: 'apply',
    method: 'POST',
    path: (f) => `/api/topics/${f.approvedId}/apply`,
    as: () => admin,
  },
  {
    name: 'start',
    method: 'POST',
    path: (f) => `/api/topics/${f.approvedId}/start`,
    as: (f) => f.mentee,
  },
  {
    name: 'conclude',
    method: 'POST',
    path: (f) => `/api/topics/${f.startedId}/conclude`,
    as: (f) => f.mentor,
  },
  {
    name: 'feedback',
    method: 'POST',
    path: (f) => `/api/topics/${f.concludedId}/feedback`,
    as: (f) => f.mentee,
  },
  {
    name: 'review',
    method: 'POST',
    path: (f) => `/api/admin/topics/${f.proposedId}/review`,
    as: () => admin,
  },
  {
    name: 'decide application',
    method: 'PATCH',
    path: (f) => `/api/applications/${f.applicationId}`,
    as: (f) => f.mentor,
  },
  {
    name: 'edit profile',
    method: 'PATCH',
    path: (f) => `/api/users/${f.mentee.user?.username}`,
    as: (f) => f.mentee,
  },
  {
    name: 'toggle admin',
    method: 'POST',
    path: (f) => `/api/admin/users/${f.mentee.user?.id}/toggle-admin`,
    as: (f) => f.mentor,
  },
  {
    name: 'mark notification read',
    method: 'PATCH',
    path: (f) => `/api/notifications/${f.notificationId}`,
    as: (f) => f.mentor,
  },
  {
    name: 'preferences',
    method: 'PATCH',
    path: () => '/api/user/notification-preferences',
    as: (f) => f.mentee,
  },
]

const deepArray = `${'['.repeat(20_000)}${']'.repeat(20_000)}`
const deepObject = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`

const NASTY_BODIES: string[] = [
  'null',
  '[]',
  '"x"',
  '0',
  'false',
  '{}',
  '{',
  '\uFEFF{}',
  '{"subject":{}}',
  '{"subject":[],"maxMentees":{},"seniorityRequired":{"0":"junior"}}',
  '{"userId":{},"status":[],"feedback":{},"rating":{},"bio":[],"interests":{}}',
  '{"emailNotifications":[]}',
  '{"emailNotifications":null}',
  deepArray,
  deepObject,
  `{"subject":${deepArray}}`,
  '1e400',
  '{"maxMentees":1e400,"rating":-1e400,"subject":"x","seniorityRequired":["junior"]}',
  '{"rating":9007199254740993,"feedback":"x"}',
  '{"rating":-0,"feedback":"x"}',
  '{"maxMentees":99999999999999999999999,"subject":"x","seniorityRequired":["junior"]}',
  '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}}}',
  '{"status":"accepted","status":"rejected"}',
  JSON.stringify({ subject: '😀'.repeat(300), bio: '\u202Etxt.exe', userId: 'ünïcödé' }),
  JSON.stringify({ subject: '\ud800\udfff\ud800', feedback: '\udc00' }),
  JSON.stringify({ interests: Array.from({ length: 5000 }, (_, i) => `i${i}`) }),
  JSON.stringify({ subject: 'x'.repeat(200_000) }),
]

describe('fuzz: nasty bodies never cause a 500', () => {
  let f: Fixture

  beforeAll(async () => {
    f = await fixture()
  })

  it.each(ROUTES.map((r) => [r.name, r] as const))('%s', async (_name, route) => {
    const failures: string[] = []
    for (const raw of NASTY_BODIES) {
      const res = await route.as(f).request(route.method, route.path(f), undefined, {
        raw,
        headers: JSON_TYPE,
      })
      if (res.status >= 500 || !res.headers.get('content-type')?.includes('json')) {
        failures.push(`${res.status} for ${raw.slice(0, 60)}: ${res.text.slice(0, 120)}`)
      }
    }
    expect(failures).toEqual([])
  })
})

/** A body that is valid for the route except for a NUL character in one text field. */
const NUL = 'bad\u0000text'
const NUL_CASES: { name: string; route: string; body: Record<string, unknown> }[] = [
  { name: 'dev-login userId', route: 'dev-login', body: { userId: NUL } },
  { name: 'topic subject', route: 'create topic', body: { ...VALID_TOPIC, subject: NUL } },
  { name: 'topic interests', route: 'create topic', body: { ...VALID_TOPIC, interests: [NUL] } },
  { name: 'edited topic subject', route: 'edit topic', body: { ...VALID_TOPIC, subject: NUL } },
  { name: 'mentor feedback', route: 'conclude', body: { mentorFeedback: NUL } },
  { name: 'feedback text', route: 'feedback', body: { feedback: NUL, rating: 4 } },
  { name: 'review reason', route: 'review', body: { status: 'rejected', rejectionReason: NUL } },
  {
    name: 'application rejection reason',
    route: 'decide application',
    body: { status: 'rejected', rejectionReason: NUL },
  },
  { name: 'profile bio', route: 'edit profile', body: { bio: NUL } },
  { name: 'profile interests', route: 'edit profile', body: { interests: [NUL] } },
]

describe('fuzz: a NUL character in a text field is a client error, not a 500', () => {
  it.each(NUL_CASES.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
    const f = await fixture()
    const route = ROUTES.find((r) => r.name === testCase.route)
    if (!route) throw new Error(`no route ${testCase.route}`)
    const res = await route.as(f).request(route.method, route.path(f), testCase.body)
    expect(res.status, res.text).toBeLessThan(500)
    if (res.status >= 400) expectProblem(res, res.status)
  })
})
