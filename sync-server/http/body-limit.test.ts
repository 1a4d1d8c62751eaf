import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../test/server.ts'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer({ BODY_LIMIT_BYTES: '1024' })
})
afterAll(() => server.stop())

describe('body limit', () => {
  // Before the limit checked Content-Length without touching the body, about
  // half of these uploads ended in a reset connection instead of the 413.
  it('answers every oversized upload with 413, also one after another on pooled connections', async () => {
    const me = await server.signIn('uploader')
    const big = JSON.stringify({ subject: 'x'.repeat(2_000_000) })
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) {
      const res = await me.post('/api/topics', undefined, {
        raw: i % 2 ? big : '{}',
        headers: { 'content-type': 'application/json' },
      })
      statuses.push(res.status)
      if (i % 2) {
        expect(res.headers.get('content-type')).toBe('application/problem+json')
        expect(res.body.detail).toBe('The request body is larger than 1024 bytes.')
      }
    }
    expect(statuses).toEqual([400, 413, 400, 413, 400, 413, 400, 413, 400, 413, 400, 413])
  })

  it('counts a chunked body without Content-Length as it streams in', async () => {
    const me = await server.signIn('streamer')
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(512)))
        controller.close()
      },
    })
    const res = await fetch(`${server.url}/api/topics`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: me.cookie ?? '' },
      body: chunks,
      duplex: 'half',
    } as RequestInit)
    expect(res.status).toBe(413)
  })
})
