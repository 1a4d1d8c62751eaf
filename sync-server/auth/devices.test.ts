import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectProblem, unique } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'

// The devices a person is signed in on, and signing them out (OWASP ASVS 3.3.4).

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0'
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.stop()
})

/** The same person signed in on a laptop and on a phone. */
async function twoDevices(): Promise<{ laptop: Client; phone: Client }> {
  const username = unique('traveller')
  const laptop = server.anonymous()
  const phone = server.anonymous()
  for (const [client, agent] of [
    [laptop, FIREFOX],
    [phone, IPHONE],
  ] as const) {
    const res = await client.post(
      '/api/auth/dev-login',
      { userId: username },
      { headers: { 'user-agent': agent } },
    )
    expect(res.status).toBe(200)
  }
  return { laptop, phone }
}

describe('GET /api/user/sessions', () => {
  it('lists the devices signed in, the current one marked, without tokens or hashes', async () => {
    const { laptop } = await twoDevices()

    const res = await laptop.get('/api/user/sessions')

    expect(res.status).toBe(200)
    expect(res.body).toHaveLength(2)
    const devices = Object.fromEntries(
      res.body.map((s: { device: string; current: boolean }) => [s.device, s.current]),
    )
    expect(devices).toEqual({ 'Firefox on Linux': true, 'Safari on iOS': false })
    const text = JSON.stringify(res.body)
    const [hashes] = await server.sql<
      { all: string }[]
    >`SELECT string_agg(id_hash, ' ') AS all FROM sessions`
    for (const hash of hashes?.all.split(' ') ?? []) expect(text).not.toContain(hash)
    expect(text).not.toContain(laptop.jar.get('pairwise_session'))
    for (const session of res.body) {
      expect(Object.keys(session).sort()).toEqual(
        ['createdAt', 'current', 'device', 'expiresAt', 'id', 'lastSeenAt'].sort(),
      )
    }
  })

  it("shows nobody else's devices", async () => {
    await twoDevices()
    const loner = await server.signIn(unique('loner'))
    const res = await loner.get('/api/user/sessions')
    expect(res.body).toHaveLength(1)
    expect(res.body[0]).toMatchObject({ current: true, device: 'Unknown device' })
  })

  it('answers 401 when signed out', async () => {
    expectProblem(await server.anonymous().get('/api/user/sessions'), 401)
  })
})

describe('signing devices out', () => {
  it('signs out one other device: its next request is 401, this one stays', async () => {
    const { laptop, phone } = await twoDevices()
    const list = (await laptop.get('/api/user/sessions')).body
    const phoneSession = list.find((s: { current: boolean }) => !s.current)

    const res = await laptop.post(`/api/user/sessions/${phoneSession.id}/sign-out`)

    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ended: 1 })
    expectProblem(await phone.get('/api/user'), 401)
    expect((await laptop.get('/api/user')).status).toBe(200)
  })

  it('signs out every other device at once', async () => {
    const { laptop, phone } = await twoDevices()
    const res = await laptop.post('/api/user/sessions/sign-out-others')
    expect(res.body).toEqual({ ended: 1 })
    expectProblem(await phone.get('/api/user'), 401)
    expect((await laptop.get('/api/user/sessions')).body).toHaveLength(1)
  })

  it("cannot sign out someone else's device: 404, and it stays signed in", async () => {
    const { laptop } = await twoDevices()
    const victim = await server.signIn(unique('victim'))
    const [victimSession] = (await victim.get('/api/user/sessions')).body

    const res = await laptop.post(`/api/user/sessions/${victimSession.id}/sign-out`)

    expectProblem(res, 404, /not signed in/)
    expect((await victim.get('/api/user')).status).toBe(200)
  })

  it('answers 404 for an id that is not a session', async () => {
    const { laptop } = await twoDevices()
    expectProblem(await laptop.post('/api/user/sessions/not-an-id/sign-out'), 404)
    expectProblem(await laptop.post(`/api/user/sessions/${crypto.randomUUID()}/sign-out`), 404)
  })

  it('is not something a sync push may replay later', async () => {
    const { laptop, phone } = await twoDevices()
    const res = await laptop.post('/api/sync/push', {
      clientId: crypto.randomUUID(),
      mutations: [
        {
          id: crypto.randomUUID(),
          method: 'POST',
          path: '/api/user/sessions/sign-out-others',
          body: null,
        },
      ],
    })
    expect(res.status).toBe(200)
    expect(res.body.results[0].status).toBe(404)
    expect(res.body.results[0].body.detail).toMatch(/is not an API mutation that sync can replay/)
    expect((await phone.get('/api/user')).status).toBe(200)
  })
})
