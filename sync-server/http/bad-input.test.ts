import { createECDH, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectProblem, topicBody, topicCount, unique } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'

// Issue 15, goal 4: the inputs that reached a 500, each answered 4xx now, and nothing lost.

let server: TestServer
let me: Client

beforeAll(async () => {
  server = await startTestServer()
  me = await server.signIn(unique('bad-input'))
})
afterAll(async () => {
  await server?.stop()
})

/** A subscription as a browser makes one, to a push service on loopback (allowed outside production). */
function subscription(expirationTime: number | null) {
  const key = createECDH('prime256v1')
  key.generateKeys()
  return {
    endpoint: `http://127.0.0.1:9/push/${randomBytes(8).toString('hex')}`,
    expirationTime,
    keys: { p256dh: key.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') },
  }
}

describe('a sync push whose mutation id cannot be a header value', () => {
  it.each([
    ['a snowman', '☃'],
    ['a NUL byte', 'id\u0000'],
    ['a line break', 'id\r\nx-injected: 1'],
    ['a space', 'two words'],
  ])('answers 400 for that mutation (%s) and keeps the results of the others', async (_n, id) => {
    const before = topicBody()
    const after = topicBody()
    const res = await me.post('/api/sync/push', {
      clientId: 'bad-ids',
      mutations: [
        { id: unique('ok'), method: 'POST', path: '/api/topics', body: before },
        { id, method: 'POST', path: '/api/topics', body: topicBody() },
        { id: unique('ok'), method: 'POST', path: '/api/topics', body: after },
      ],
    })
    expect(res.status, res.text).toBe(200)
    expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([201, 400, 201])
    expect(res.body.results[1].body.detail).toMatch(/visible ASCII/)
    expect(await topicCount(server, before.subject as string)).toBe(1)
    expect(await topicCount(server, after.subject as string)).toBe(1)
  })
})

describe('a sync push carrying a body nested 5,000 levels deep', () => {
  it('answers 400 for that mutation and applies the others', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`
    const first = topicBody()
    const raw = `{"clientId":"deep","mutations":[
      {"id":"${unique('ok')}","method":"POST","path":"/api/topics","body":${JSON.stringify(first)}},
      {"id":"${unique('deep')}","method":"POST","path":"/api/topics","body":{"subject":${deep}}}]}`
    const res = await me.post('/api/sync/push', undefined, {
      raw,
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status, res.text).toBe(200)
    expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([201, 400])
    expect(res.body.results[1].body.detail).toMatch(/nests at most 64 levels/)
    expect(await topicCount(server, first.subject as string)).toBe(1)
  })
})

describe('a push subscription expiring after the year 9999', () => {
  it.each([
    ['the year 10000', Date.UTC(10000, 0, 1)],
    ['past what a Date can hold', 8.64e15 + 1],
    ['the largest safe integer', Number.MAX_SAFE_INTEGER],
  ])('answers 400 for %s and stores nothing', async (_n, expirationTime) => {
    const body = subscription(expirationTime)
    const res = await me.post('/api/push/subscriptions', body)
    expectProblem(res, 400, /expirationTime/)
    const rows = await server.sql`
      SELECT 1 FROM push_subscriptions WHERE endpoint = ${body.endpoint}`
    expect(rows).toHaveLength(0)
  })

  it('still keeps the last millisecond of 9999', async () => {
    const last = Date.UTC(9999, 11, 31, 23, 59, 59, 999)
    const res = await me.post('/api/push/subscriptions', subscription(last))
    expect(res.status, res.text).toBe(201)
    expect(res.body.expirationTime).toBe(last)
  })
})

describe('dev-login with a malformed multipart body', () => {
  it.each([
    ['a boundary that never appears', 'b1', 'no parts here at all'],
    [
      'a part that never ends',
      'b2',
      '--b2\r\nContent-Disposition: form-data; name="userId"\r\n\r\nx',
    ],
    ['no boundary parameter', '', '--x\r\n\r\n--x--\r\n'],
  ])('answers 400 (%s) and signs nobody in', async (_n, boundary, raw) => {
    const client = server.anonymous()
    const res = await client.post('/api/auth/dev-login', undefined, {
      raw,
      headers: {
        'content-type': boundary
          ? `multipart/form-data; boundary=${boundary}`
          : 'multipart/form-data',
        'sec-fetch-site': 'same-origin',
      },
    })
    expect(res.status, res.text).toBe(400)
    expect(res.headers.getSetCookie()).toEqual([])
  })
})

describe('CSRF: an Origin with this host and port but another scheme', () => {
  it('refuses the request: https://host:port is not the http server on host:port', async () => {
    const subject = unique('Cross scheme')
    const res = await me.post('/api/topics', topicBody({ subject }), {
      headers: { origin: server.url.replace(/^http:/, 'https:') },
    })
    expectProblem(res, 403, /another site/)
    expect(await topicCount(server, subject)).toBe(0)
  })

  it('accepts the same scheme, host and port', async () => {
    const res = await me.post('/api/topics', topicBody(), { headers: { origin: server.url } })
    expect(res.status, res.text).toBe(201)
  })
})
