import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { AppEnv } from './http/env.ts'
import { Lifecycle } from './http/lifecycle.ts'
import { shutDown } from './shutdown.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A server with a slow route and a /healthz that reports draining, as app.ts has. */
async function startServer(lifecycle: Lifecycle) {
  const app = new Hono<AppEnv>()
  app.use(lifecycle.track)
  app.get('/healthz', (c) =>
    c.text(lifecycle.draining ? 'draining' : 'ok', lifecycle.draining ? 503 : 200),
  )
  app.get('/slow', async (c) => {
    await sleep(Number(c.req.query('ms')))
    return c.text('done')
  })
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

describe('shutDown', () => {
  it('drains, finishes requests and the workers, and closes the database last', async () => {
    const lifecycle = new Lifecycle()
    const { server, url } = await startServer(lifecycle)
    const events: string[] = []
    const slow = fetch(`${url}/slow?ms=700`).then(async (res) => {
      events.push(`slow request answered ${res.status} ${await res.text()}`)
    })
    await sleep(50)
    const stopped = shutDown({
      server,
      lifecycle,
      drainMs: 300,
      timeoutMs: 5000,
      stopWorkers: async () => {
        await sleep(900)
        events.push('workers stopped')
      },
      closeDatabase: async () => {
        events.push('database closed')
      },
      log: () => {},
    })
    // While draining: unhealthy, but still serving, and asking clients to reconnect elsewhere.
    const health = await fetch(`${url}/healthz`)
    expect(health.status).toBe(503)
    expect(health.headers.get('connection')).toBe('close')
    expect((await fetch(`${url}/slow?ms=0`)).status).toBe(200)
    await stopped
    await slow
    expect(events).toHaveLength(3)
    expect(events.slice(0, 2)).toEqual(
      expect.arrayContaining(['slow request answered 200 done', 'workers stopped']),
    )
    expect(events[2]).toBe('database closed')
    // No longer listening.
    await expect(fetch(`${url}/healthz`)).rejects.toThrow()
  })

  it('cuts what is still open at the deadline and still closes the database', async () => {
    const lifecycle = new Lifecycle()
    const { server, url } = await startServer(lifecycle)
    const hanging = fetch(`${url}/slow?ms=60000`).then(
      (res) => res.status,
      () => 'cut',
    )
    await sleep(50)
    let closed = false
    await shutDown({
      server,
      lifecycle,
      drainMs: 100,
      timeoutMs: 1500,
      stopWorkers: async () => {},
      closeDatabase: async () => {
        closed = true
      },
      log: () => {},
    })
    expect(closed).toBe(true)
    expect(await hanging).toBe('cut')
  })
})
