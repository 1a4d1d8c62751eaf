import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { CLIENT_EVENT_RATE_LIMIT } from '../../shared/client-events.ts'
import { expectProblem, unique } from '../test/api.ts'
import { startTestServer, type TestServer } from '../test/server.ts'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.stop()
})

const stall = {
  kind: 'indexeddb-stalled',
  operation: 'topics-count',
  waitedMs: 5000,
  recovered: true,
  engine: 'webkit',
}

describe('POST /api/client-events', () => {
  it('logs a stall on one line without the user, and answers 202', async () => {
    const me = await server.signIn(unique('stalled'))
    const info = vi.spyOn(console, 'info').mockImplementation(() => {})
    try {
      const res = await me.post('/api/client-events', stall)
      expect(res.status, res.text).toBe(202)
      expect(res.body).toEqual({ logged: true })
      const lines = info.mock.calls.map((args) => args.join(' '))
      const line = lines.find((l) => l.startsWith('Client event:'))
      expect(line).toBe(
        'Client event: indexeddb-stalled topics-count after 5000 ms on webkit, recovered',
      )
      expect(line).not.toContain(me.user?.id ?? '-')
      expect(line).not.toContain(me.user?.username ?? '-')
    } finally {
      info.mockRestore()
    }
  })

  it('answers 401 without a session', async () => {
    expectProblem(await server.anonymous().post('/api/client-events', stall), 401)
  })

  it('answers 400 naming the field for an unknown kind or a free-text operation', async () => {
    const me = await server.signIn(unique('stalled'))
    const res = await me.post('/api/client-events', {
      ...stall,
      kind: 'crash',
      operation: 'SELECT * FROM users WHERE name = Ann',
    })
    expectProblem(res, 400)
    const paths = (res.body.errors as { path: string }[]).map((e) => e.path).sort()
    expect(paths).toEqual(['kind', 'operation'])
  })

  it('answers 429 with Retry-After past the limit per minute', async () => {
    const me = await server.signIn(unique('stalled'))
    const info = vi.spyOn(console, 'info').mockImplementation(() => {})
    try {
      const answers = []
      for (let i = 0; i <= CLIENT_EVENT_RATE_LIMIT; i += 1) {
        answers.push((await me.post('/api/client-events', stall)).status)
      }
      expect(answers.filter((s) => s === 202).length).toBeLessThanOrEqual(CLIENT_EVENT_RATE_LIMIT)
      const last = await me.post('/api/client-events', stall)
      expectProblem(last, 429)
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0)
    } finally {
      info.mockRestore()
    }
  })
})
