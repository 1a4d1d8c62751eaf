import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectProblem, unique } from '../test/api.ts'
import type { TestServer } from '../test/server.ts'
import { subscriptionSchemaFor } from './routes.ts'
import { type PushTestbed, startPushTestbed } from './testbed.ts'
import type { FakePushService } from './testing.ts'

let bed: PushTestbed
let server: TestServer
let push: FakePushService
let subscribe: PushTestbed['subscribe']
let subscribedMentor: PushTestbed['subscribedMentor']
let settled: PushTestbed['settled']

beforeAll(async () => {
  bed = await startPushTestbed()
  ;({ server, push, subscribe, subscribedMentor, settled } = bed)
})
afterAll(async () => {
  await bed?.stop()
})

describe('GET /api/push/vapid-public-key', () => {
  it('answers the same stored key to everyone, as the uncompressed P-256 point', async () => {
    const a = await server.signIn(unique('key-user'))
    const b = await server.signIn(unique('key-user'))
    const first = await a.get('/api/push/vapid-public-key')
    expect(first.status).toBe(200)
    expect(first.body.publicKey).toMatch(/^B[A-Za-z0-9_-]{86}$/)
    expect((await b.get('/api/push/vapid-public-key')).body).toEqual(first.body)
    const [stored] = await server.sql<{ publicKey: string }[]>`
      SELECT value->>'publicKey' AS "publicKey" FROM server_settings WHERE name = 'vapid_keys'`
    expect(stored?.publicKey).toBe(first.body.publicKey)
  })

  it('answers 401 without a session', async () => {
    expectProblem(await server.anonymous().get('/api/push/vapid-public-key'), 401)
  })
})

describe('POST /api/push/subscriptions', () => {
  it('stores a device, answers 201 without its keys, then 200 when it registers again', async () => {
    const me = await server.signIn(unique('sub-user'))
    const device = push.device(unique('dev'))
    const first = await subscribe(me, device)
    expect(first.body).toEqual({
      endpoint: device.subscription.endpoint,
      expirationTime: null,
      createdAt: expect.any(String),
    })
    const again = await subscribe(me, device, 200)
    expect(again.body.createdAt).toBe(first.body.createdAt)
    const rows = await server.sql`
      SELECT 1 FROM push_subscriptions WHERE endpoint = ${device.subscription.endpoint}`
    expect(rows).toHaveLength(1)
  })

  it('moves an endpoint to the user who registers it last (another user on the same browser)', async () => {
    const { topic, device } = await subscribedMentor()
    const next = await server.signIn(unique('same-browser'))
    await subscribe(next, device, 200)
    await server.signIn(unique('push-mentee')).then((m) => m.post(`/api/topics/${topic.id}/apply`))
    await settled()
    expect(device.received()).toHaveLength(0)
  })

  it('keeps an expirationTime', async () => {
    const me = await server.signIn(unique('sub-user'))
    const device = push.device(unique('dev'))
    const expirationTime = Date.now() + 86_400_000
    const res = await me.post('/api/push/subscriptions', { ...device.subscription, expirationTime })
    expect(res.status).toBe(201)
    expect(res.body.expirationTime).toBe(expirationTime)
  })

  it('honours Idempotency-Key', async () => {
    const me = await server.signIn(unique('sub-user'))
    const device = push.device(unique('dev'))
    const headers = { headers: { 'Idempotency-Key': unique('sub-key') } }
    const first = await me.post('/api/push/subscriptions', device.subscription, headers)
    const replay = await me.post('/api/push/subscriptions', device.subscription, headers)
    expect(first.status).toBe(201)
    expect(replay.status).toBe(201)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
  })

  it('answers 401 without a session', async () => {
    const device = push.device(unique('dev'))
    expectProblem(
      await server.anonymous().post('/api/push/subscriptions', device.subscription),
      401,
    )
  })

  const device = () => push.device(unique('bad')).subscription
  const notOnCurve = `B${'A'.repeat(86)}`
  it.each([
    ['an empty body', () => ({}), 'endpoint'],
    ['no keys', () => ({ endpoint: device().endpoint }), 'keys'],
    [
      'an http endpoint off loopback',
      () => ({ ...device(), endpoint: 'http://push.example.com/x' }),
      'endpoint',
    ],
    ['an ftp endpoint', () => ({ ...device(), endpoint: 'ftp://push.example.com/x' }), 'endpoint'],
    ['a relative endpoint', () => ({ ...device(), endpoint: '/push/x' }), 'endpoint'],
    [
      'credentials in the endpoint',
      () => ({ ...device(), endpoint: 'https://u:p@push.example.com/x' }),
      'endpoint',
    ],
    [
      'a long endpoint',
      () => ({ ...device(), endpoint: `https://push.example.com/${'x'.repeat(2100)}` }),
      'endpoint',
    ],
    [
      'a short p256dh',
      () => ({ ...device(), keys: { ...device().keys, p256dh: 'BAAA' } }),
      'keys.p256dh',
    ],
    [
      'a p256dh off the curve',
      () => ({ ...device(), keys: { ...device().keys, p256dh: notOnCurve } }),
      'keys.p256dh',
    ],
    [
      'an auth of 8 bytes',
      () => ({ ...device(), keys: { ...device().keys, auth: 'AAAAAAAAAAA' } }),
      'keys.auth',
    ],
    ['a number as auth', () => ({ ...device(), keys: { ...device().keys, auth: 5 } }), 'keys.auth'],
    ['an unknown field', () => ({ ...device(), user: 'admin' }), ''],
    ['a negative expirationTime', () => ({ ...device(), expirationTime: -1 }), 'expirationTime'],
    ['an array', () => [device()], ''],
  ])('refuses %s with 400 naming the field', async (_name, body, field) => {
    const me = await server.signIn(unique('sub-bad'))
    const res = await me.post('/api/push/subscriptions', body())
    expectProblem(res, 400)
    if (field) expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(field)
    const [row] = await server.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM push_subscriptions WHERE user_id = ${me.user?.id ?? ''}`
    expect(row?.n).toBe(0)
  })

  it('refuses a body that is not JSON with 400 and another media type with 415', async () => {
    const me = await server.signIn(unique('sub-bad'))
    expectProblem(
      await me.post('/api/push/subscriptions', undefined, {
        raw: '{"endpoint":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
    )
    expectProblem(
      await me.post('/api/push/subscriptions', undefined, {
        raw: 'endpoint=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
    )
  })

  it('refuses a cross-site registration', async () => {
    const me = await server.signIn(unique('sub-csrf'))
    const res = await me.post('/api/push/subscriptions', push.device(unique('dev')).subscription, {
      headers: { 'sec-fetch-site': 'cross-site' },
    })
    expectProblem(res, 403)
  })

  it('keeps the 20 most recent devices of a user', async () => {
    const me = await server.signIn(unique('many-devices'))
    const devices = Array.from({ length: 22 }, () => push.device(unique('dev')))
    for (const d of devices) await subscribe(me, d)
    const rows = await server.sql<{ endpoint: string }[]>`
      SELECT endpoint FROM push_subscriptions WHERE user_id = ${me.user?.id ?? ''}`
    expect(rows).toHaveLength(20)
    expect(rows.map((r) => r.endpoint)).not.toContain(devices[0]?.subscription.endpoint)
  })
})

describe('DELETE /api/push/subscriptions', () => {
  it('removes the caller’s device; pushes stop', async () => {
    const { mentor, topic, device } = await subscribedMentor()
    const res = await mentor.request('DELETE', '/api/push/subscriptions', {
      endpoint: device.subscription.endpoint,
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ removed: 1 })
    await server.signIn(unique('push-mentee')).then((m) => m.post(`/api/topics/${topic.id}/apply`))
    await settled()
    expect(device.received()).toHaveLength(0)
    // Again: nothing left to remove, and no error.
    expect(
      (
        await mentor.request('DELETE', '/api/push/subscriptions', {
          endpoint: device.subscription.endpoint,
        })
      ).body,
    ).toEqual({ removed: 0 })
  })

  it('leaves another user’s device alone', async () => {
    const { topic, device } = await subscribedMentor()
    const other = await server.signIn(unique('push-snoop'))
    const res = await other.request('DELETE', '/api/push/subscriptions', {
      endpoint: device.subscription.endpoint,
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ removed: 0 })
    await server.signIn(unique('push-mentee')).then((m) => m.post(`/api/topics/${topic.id}/apply`))
    await push.waitFor(1, device.name)
  })

  it('refuses a missing endpoint with 400 and answers 401 without a session', async () => {
    const me = await server.signIn(unique('unsub'))
    expectProblem(await me.request('DELETE', '/api/push/subscriptions', {}), 400)
    expectProblem(await me.request('DELETE', '/api/push/subscriptions', { endpoint: 5 }), 400)
    expectProblem(
      await server.anonymous().request('DELETE', '/api/push/subscriptions', { endpoint: 'x' }),
      401,
    )
  })
})

describe('sync push', () => {
  it('does not replay push subscriptions: they are registered online', async () => {
    const me = await server.signIn(unique('sync-sub'))
    const res = await me.post('/api/sync/push', {
      clientId: crypto.randomUUID(),
      mutations: [
        {
          id: crypto.randomUUID(),
          method: 'POST',
          path: '/api/push/subscriptions',
          body: push.device(unique('dev')).subscription,
        },
      ],
    })
    expect(res.status).toBe(200)
    expect(res.body.results[0].status).toBe(404)
  })
})

describe('subscription endpoints in production', () => {
  const keys = {
    p256dh: `B${'A'.repeat(86)}`,
    auth: 'A'.repeat(22),
  }
  const accepts = (endpoint: string) =>
    subscriptionSchemaFor(true).safeParse({ endpoint, keys }).success

  it('accepts the push services of the browsers', () => {
    expect(accepts('https://fcm.googleapis.com/fcm/send/abc:def')).toBe(true)
    expect(accepts('https://updates.push.services.mozilla.com/wpush/v2/gAAA')).toBe(true)
    expect(accepts('https://web.push.apple.com/QGx2')).toBe(true)
    expect(accepts('https://wns2-par02p.notify.windows.com/w/?token=x')).toBe(true)
  })

  it.each([
    'http://127.0.0.1:9000/push',
    'http://localhost/push',
    'https://127.0.0.1/push',
    'https://10.0.0.5/push',
    'https://[::1]/push',
    'https://metadata/computeMetadata',
    'https://printer.local/push',
    'https://db.internal/push',
    'https://app.localhost/push',
  ])('refuses %s: the worker must not post into the local network', (endpoint) => {
    expect(accepts(endpoint)).toBe(false)
  })

  it('accepts a loopback http endpoint outside production only', () => {
    const body = { endpoint: 'http://127.0.0.1:9000/push', keys }
    expect(subscriptionSchemaFor(false).safeParse(body).success).toBe(true)
    expect(
      subscriptionSchemaFor(false).safeParse({ ...body, endpoint: 'http://10.0.0.5/p' }).success,
    ).toBe(false)
  })
})
