import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { approvedTopic, signInAdmin, topicBody, topicCount, unique } from '../test/api.ts'
import { type Answer, type Client, startTestServer, type TestServer } from '../test/server.ts'

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'idem-admin')
})
afterAll(async () => {
  await server?.stop()
})

function withKey(key: string) {
  return { headers: { 'Idempotency-Key': key } }
}

function expectReplayOf(replay: Answer, original: Answer): void {
  expect(replay.status).toBe(original.status)
  expect(replay.body).toEqual(original.body)
  expect(replay.headers.get('idempotent-replayed')).toBe('true')
  expect(replay.headers.get('content-type')).toBe(original.headers.get('content-type'))
}

describe('Idempotency-Key: a repeated request', () => {
  it('replays the stored answer and creates the topic once', async () => {
    const mentor = await server.signIn(unique('idem-mentor'))
    const subject = unique('Once only')
    const key = unique('key')

    const first = await mentor.post('/api/topics', topicBody({ subject }), withKey(key))
    const second = await mentor.post('/api/topics', topicBody({ subject }), withKey(key))

    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    expectReplayOf(second, first)
    expect(await topicCount(server, subject)).toBe(1)
    // One "topic for review" notification for the admin, not two.
    const notes = await admin.get('/api/notifications')
    expect(
      notes.body.filter((n: { message: string }) => n.message.includes(`"${subject}"`)),
    ).toHaveLength(1)
  })

  it('replays a PATCH: the application is accepted once and the mentee told once', async () => {
    const mentor = await server.signIn(unique('idem-mentor'))
    const mentee = await server.signIn(unique('idem-mentee'))
    const { id: topicId } = await approvedTopic(admin, mentor, { subject: unique('Open topic') })
    const application = await mentee.post(`/api/topics/${topicId}/apply`)
    const key = unique('accept')

    const first = await mentor.patch(
      `/api/applications/${application.body.id}`,
      { status: 'accepted' },
      withKey(key),
    )
    const second = await mentor.patch(
      `/api/applications/${application.body.id}`,
      { status: 'accepted' },
      withKey(key),
    )

    expect(first.status).toBe(200)
    expectReplayOf(second, first)
    const notes = await mentee.get('/api/notifications')
    expect(
      notes.body.filter((n: { kind: string }) => n.kind === 'application_accepted'),
    ).toHaveLength(1)
    expect((await mentor.get(`/api/topics/${topicId}`)).body.currentMentees).toBe(1)
  })

  it('without a key, a repeated create makes two topics', async () => {
    const mentor = await server.signIn(unique('idem-mentor'))
    const subject = unique('Twice')
    expect((await mentor.post('/api/topics', topicBody({ subject }))).status).toBe(201)
    expect((await mentor.post('/api/topics', topicBody({ subject }))).status).toBe(201)
    expect(await topicCount(server, subject)).toBe(2)
  })
})

describe('Idempotency-Key: reuse for a different request', () => {
  it('refuses the same key with a different body with 422 and applies nothing', async () => {
    const mentor = await server.signIn(unique('idem-mentor'))
    const key = unique('reused')
    const a = unique('First body')
    const b = unique('Second body')
    expect((await mentor.post('/api/topics', topicBody({ subject: a }), withKey(key))).status).toBe(
      201,
    )

    const res = await mentor.post('/api/topics', topicBody({ subject: b }), withKey(key))

    expect(res.status).toBe(422)
    expect(res.headers.get('content-type')).toMatch(/problem\+json/)
    expect(res.body).toMatchObject({
      status: 422,
      detail: expect.stringMatching(/Idempotency-Key/),
    })
    expect(await topicCount(server, b)).toBe(0)
  })

  it('refuses the same key on a different path with 422 and applies nothing', async () => {
    const mentor = await server.signIn(unique('idem-mentor'))
    const mentee = await server.signIn(unique('idem-mentee'))
    const { id: first } = await approvedTopic(admin, mentor, { subject: unique('Open topic') })
    const { id: second } = await approvedTopic(admin, mentor, { subject: unique('Open topic') })
    const key = unique('path')
    expect((await mentee.post(`/api/topics/${first}/apply`, undefined, withKey(key))).status).toBe(
      201,
    )

    const res = await mentee.post(`/api/topics/${second}/apply`, undefined, withKey(key))

    expect(res.status).toBe(422)
    expect(res.body.detail).toMatch(/different request/)
    expect((await mentee.get(`/api/topics/${second}/my-application`)).body).toBeNull()
  })

  it('refuses the same key with a different method with 422', async () => {
    const owner = await server.signIn(unique('idem-owner'))
    const key = unique('method')
    const name = owner.user?.username ?? ''
    expect((await owner.patch(`/api/users/${name}`, { bio: 'one' }, withKey(key))).status).toBe(200)
    const res = await owner.request('POST', `/api/users/${name}`, { bio: 'one' }, withKey(key))
    expect(res.status).toBe(422)
  })
})

describe('Idempotency-Key: refused requests', () => {
  it('replays a 4xx answer as the same 4xx, even after the state changed', async () => {
    const mentor = await server.signIn(unique('idem-mentor'))
    const mentee = await server.signIn(unique('idem-mentee'))
    const created = await mentor.post('/api/topics', topicBody({ subject: unique('Not yet open') }))
    const topicId = created.body.id
    const key = unique('early')

    const refused = await mentee.post(`/api/topics/${topicId}/apply`, undefined, withKey(key))
    expect(refused.status).toBe(404)
    expect(refused.headers.get('content-type')).toMatch(/problem\+json/)

    await admin.post(`/api/admin/topics/${topicId}/review`, { status: 'approved' })
    const replay = await mentee.post(`/api/topics/${topicId}/apply`, undefined, withKey(key))

    expectReplayOf(replay, refused)
    expect((await mentee.get(`/api/topics/${topicId}/my-application`)).body).toBeNull()
    // A new key is a new request.
    const fresh = await mentee.post(`/api/topics/${topicId}/apply`, undefined, withKey(unique('k')))
    expect(fresh.status).toBe(201)
  })

  it('replays a 400 validation answer with its field errors', async () => {
    const mentor = await server.signIn(unique('idem-mentor'))
    const key = unique('invalid')
    const body = { subject: '', maxMentees: 3, seniorityRequired: [] }
    const first = await mentor.post('/api/topics', body, withKey(key))
    expect(first.status).toBe(400)
    expect(first.body.errors.length).toBeGreaterThan(0)
    expectReplayOf(await mentor.post('/api/topics', body, withKey(key)), first)
  })

  it('refuses an Idempotency-Key longer than 255 characters with 400', async () => {
    const mentor = await server.signIn(unique('idem-mentor'))
    const subject = unique('Long key')
    const res = await mentor.post('/api/topics', topicBody({ subject }), withKey('k'.repeat(256)))
    expect(res.status).toBe(400)
    expect(res.body.detail).toMatch(/Idempotency-Key/)
    expect(await topicCount(server, subject)).toBe(0)
  })
})

describe('Idempotency-Key: concurrency and scope', () => {
  it('applies five concurrent requests with one key once, all answering alike', async () => {
    const mentor = await server.signIn(unique('idem-mentor'))
    const subject = unique('Concurrent')
    const key = unique('burst')

    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map(() => mentor.post('/api/topics', topicBody({ subject }), withKey(key))),
    )

    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201])
    for (const answer of answers) expect(answer.body).toEqual(answers[0]?.body)
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(4)
    expect(await topicCount(server, subject)).toBe(1)
  })

  it('keeps keys per user: another user may use the same key for their own request', async () => {
    const alice = await server.signIn(unique('alice'))
    const bob = await server.signIn(unique('bob'))
    const key = unique('shared')
    const a = await alice.post(
      '/api/topics',
      topicBody({ subject: unique('Alice topic') }),
      withKey(key),
    )
    const b = await bob.post(
      '/api/topics',
      topicBody({ subject: unique('Bob topic') }),
      withKey(key),
    )

    expect(a.status).toBe(201)
    expect(b.status).toBe(201)
    expect(b.headers.get('idempotent-replayed')).toBeNull()
    expect(b.body.id).not.toBe(a.body.id)
    expect(b.body.mentor.id).toBe(bob.user?.id)

    // And the very same request by another user is not a replay either.
    const same = unique('Same subject')
    const key2 = unique('same')
    const x = await alice.post('/api/topics', topicBody({ subject: same }), withKey(key2))
    const y = await bob.post('/api/topics', topicBody({ subject: same }), withKey(key2))
    expect(y.headers.get('idempotent-replayed')).toBeNull()
    expect(y.body.id).not.toBe(x.body.id)
    expect(await topicCount(server, same)).toBe(2)
  })
})
