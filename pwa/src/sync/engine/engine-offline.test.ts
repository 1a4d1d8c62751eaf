import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { unique } from '../../../../sync-server/test/api.ts'
import { startTestServer, type TestServer } from '../../../../sync-server/test/server.ts'
import { fetchEventSource } from '../testing/event-source.ts'
import { createEngine, stopEngines, waitForStatus } from '../testing/harness.ts'
import type { Connectivity, EventSourceFactory } from './environment.ts'

// While the browser says it is offline the engine neither pulls nor opens
// its event stream; both start on `online`, and the stream closes on `offline`.

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterEach(stopEngines)
afterAll(() => server?.stop())

function switchableConnectivity(online: boolean) {
  const listeners = new Set<(event: 'online' | 'offline' | 'visible') => void>()
  const connectivity: Connectivity = {
    isOnline: () => online,
    subscribe: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  const set = (value: boolean) => {
    online = value
    for (const listener of listeners) listener(value ? 'online' : 'offline')
  }
  return { connectivity, set }
}

describe('offline at start', () => {
  it('sends nothing and opens no event stream until online, then pulls and listens', async () => {
    const me = await server.signIn(unique('offline-start'))
    const { connectivity, set } = switchableConnectivity(false)
    const opened: { url: string; closed: () => boolean }[] = []
    const real = fetchEventSource(me)
    const eventSource: EventSourceFactory = (url) => {
      const source = real(url)
      opened.push({ url, closed: () => source.readyState === 2 })
      return source
    }
    const { engine, network } = createEngine(server, me, { connectivity, eventSource })

    const result = await engine.start()
    expect(result).toMatchObject({ outcome: 'offline' })
    expect(network.sent).toEqual([])
    expect(opened).toEqual([])
    expect(engine.status.get().online).toBe(false)

    set(true)
    await waitForStatus(engine, (s) => s.lastSyncedAt !== null && s.online)
    expect(network.sent.some((s) => s.path === '/api/sync/pull')).toBe(true)
    expect(opened.map((o) => new URL(o.url).pathname)).toEqual(['/api/sync/events'])

    set(false)
    expect(opened[0]?.closed()).toBe(true)
    expect(engine.status.get().online).toBe(false)
  })
})
