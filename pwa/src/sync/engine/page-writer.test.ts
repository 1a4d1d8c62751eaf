import { randomUUID } from 'node:crypto'
import Dexie from 'dexie'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { PullResponse } from '../../../../shared/sync.ts'
import { approvedTopic, signInAdmin, unique } from '../../../../sync-server/test/api.ts'
import {
  type Client,
  startTestServer,
  type TestServer,
} from '../../../../sync-server/test/server.ts'
import { createEngine, flushSettled, stopEngines, TestNetwork } from '../testing/harness.ts'
import { inProcessPageWriter } from '../testing/page-writer.ts'
import { createSyncDb, getMeta, META, PULLED_STORES, setMeta } from './db.ts'
import { writeAfter } from './page-writer.ts'
import { readTable } from './view.ts'

// A first sync's pages after the first, written by the page writer (a worker
// in the browser, page-writer.ts; here the same code in this thread): what
// the device ends up with, and what happens when the writer stops or the
// flush is given up.

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, unique('writer-admin'))
})
afterEach(stopEngines)
afterAll(() => server?.stop())

/** A mentor with `count` approved topics: a first sync of several pages of `limit` rows. */
async function mentorWithTopics(name: string, count: number): Promise<Client> {
  const mentor = await server.signIn(unique(name))
  for (let i = 0; i < count; i++) await approvedTopic(admin, mentor)
  return mentor
}

/** The cursor a pull request asked from ('' for none). */
const cursorOf = (query: URLSearchParams) => query.get('cursor') ?? ''

describe('a first sync with a page writer', () => {
  it('writes the first page itself and the pages after it through the writer', async () => {
    const mentor = await mentorWithTopics('writer-mentor', 4)
    const network = new TestNetwork(mentor)
    const writer = inProcessPageWriter(network.fetch)
    const { engine } = createEngine(server, mentor, { network, pageWriter: writer })
    const asked: string[] = []
    network.intercept = async (sent) => {
      if (sent.path !== '/api/sync/pull') return undefined
      asked.push(cursorOf(sent.query))
      const url = new URL(`${server.url}${sent.path}?${sent.query}`)
      url.searchParams.set('limit', '2')
      return fetch(url, { headers: { cookie: mentor.cookie ?? '' } })
    }
    const result = await engine.start()
    expect(result).toMatchObject({ outcome: 'synced' })
    if (result.outcome !== 'synced') return
    const { pulled } = result
    expect(pulled.pages).toBeGreaterThan(3)
    // Every page but the first.
    expect(pulled.byWriter).toBe(pulled.pages - 1)
    expect(writer.log).toMatchObject({ started: 1, stopped: 1 })
    // Each page asked for once: this thread asked for no page the writer took.
    expect(new Set(asked).size).toBe(asked.length)
    expect(asked).toHaveLength(pulled.pages)
    expect(await readTable(engine.db, 'topics')).toHaveLength(
      (await mentor.get('/api/topics')).body.length,
    )
    expect(await getMeta(engine.db, META.cursor)).toBe(pulled.cursor)
    expect(await getMeta(engine.db, META.lastSyncedAt)).toBeTypeOf('number')

    // The next pull is this thread's, from where the writer ended.
    await approvedTopic(admin, mentor)
    const next = await flushSettled(engine)
    expect(next).toMatchObject({ outcome: 'synced', pulled: { byWriter: 0 } })
    expect(writer.log.started).toBe(1)
    expect(await readTable(engine.db, 'topics')).toHaveLength(
      (await mentor.get('/api/topics')).body.length,
    )
  })

  it('lets the screens read the first page before the writer writes the second', async () => {
    const mentor = await mentorWithTopics('writer-first-mentor', 3)
    const network = new TestNetwork(mentor)
    const writer = inProcessPageWriter(network.fetch)
    // When the writer is told to write, beside when the screens read.
    const order: string[] = []
    const { engine } = createEngine(server, mentor, {
      network,
      pageWriter: (listen) => {
        const started = writer(listen)
        return (
          started && {
            post: (message) => {
              if (message.type === 'go') order.push('go')
              started.post(message)
            },
            stop: () => started.stop(),
          }
        )
      },
    })
    // Every page fetched beforehand and answered at once, as on a fast network.
    const pages = new Map<string, string>()
    for (let cursor = ''; ; ) {
      const url = new URL(`${server.url}/api/sync/pull?limit=2`)
      if (cursor !== '') url.searchParams.set('cursor', cursor)
      const text = await (await fetch(url, { headers: { cookie: mentor.cookie ?? '' } })).text()
      pages.set(cursor, text)
      const page = JSON.parse(text) as { hasMore: boolean; cursor: string }
      if (!page.hasMore) break
      cursor = page.cursor
    }
    let answered = 0
    network.intercept = async (sent) => {
      if (sent.path !== '/api/sync/pull') return undefined
      const text = pages.get(cursorOf(sent.query))
      if (text === undefined) throw new Error(`No page for ${sent.query}`)
      answered += 1
      return new Response(text, { headers: { 'content-type': 'application/json' } })
    }
    // A screen reads again on the next turn of the event loop after a commit (useSyncedCoalesced).
    let firstRead: Promise<number> | undefined
    const onCommit = (parts: Record<string, unknown>) => {
      const touched = Object.keys(parts).some((k) =>
        k.startsWith(`idb://${engine.db.name}/topics/`),
      )
      if (firstRead || answered === 0 || !touched) return
      firstRead = new Promise((resolve, reject) =>
        setTimeout(() => {
          order.push('read')
          readTable(engine.db, 'topics').then((t) => resolve(t.length), reject)
        }, 0),
      )
    }
    Dexie.on('storagemutated', onCommit)
    try {
      const result = await engine.start()
      expect(result).toMatchObject({ outcome: 'synced' })
      expect(result.outcome === 'synced' && result.pulled.byWriter).toBeGreaterThan(0)
    } finally {
      Dexie.on('storagemutated').unsubscribe(onCommit)
    }
    // The screens asked for the first page before the writer could ask for its transaction.
    expect(order).toEqual(['read', 'go'])
    expect(await firstRead).toBe(2)
    expect(await readTable(engine.db, 'topics')).toHaveLength(
      (await mentor.get('/api/topics')).body.length,
    )
  })

  it('goes on from the last page the writer wrote when the writer stops', async () => {
    const mentor = await mentorWithTopics('writer-stops-mentor', 6)
    const network = new TestNetwork(mentor)
    const writer = inProcessPageWriter(network.fetch)
    const { engine } = createEngine(server, mentor, { network, pageWriter: writer })
    const asked: string[] = []
    let failed = ''
    network.intercept = async (sent) => {
      if (sent.path !== '/api/sync/pull') return undefined
      const cursor = cursorOf(sent.query)
      asked.push(cursor)
      // The writer's second page (the sync's third) is refused once: a server busy for a moment.
      if (failed === '' && asked.length === 3) {
        failed = cursor
        return new Response(JSON.stringify({ title: 'Busy', status: 503 }), {
          status: 503,
          headers: { 'content-type': 'application/problem+json' },
        })
      }
      const url = new URL(`${server.url}${sent.path}?${sent.query}`)
      url.searchParams.set('limit', '2')
      return fetch(url, { headers: { cookie: mentor.cookie ?? '' } })
    }
    const result = await engine.start()
    expect(result).toMatchObject({ outcome: 'synced' })
    // The writer wrote one page (the sync's second) before it stopped.
    expect(writer.log.messages.filter((m) => m.type === 'page')).toHaveLength(1)
    expect(result.outcome === 'synced' && result.pulled.byWriter).toBe(1)
    expect(writer.log.messages).toContainEqual({
      type: 'stopped',
      reason: 'The pull answered 503.',
    })
    // Asked for again, by this thread, from the cursor the writer's page stored.
    expect(asked.filter((c) => c === failed)).toHaveLength(2)
    expect(await readTable(engine.db, 'topics')).toHaveLength(
      (await mentor.get('/api/topics')).body.length,
    )
    expect(await getMeta(engine.db, META.lastSyncedAt)).toBeTypeOf('number')
  })

  it('stops the writer when the sync stops, and nothing is written after', async () => {
    const mentor = await mentorWithTopics('writer-stopped-mentor', 6)
    const network = new TestNetwork(mentor)
    const writer = inProcessPageWriter(network.fetch)
    const { engine } = createEngine(server, mentor, { network, pageWriter: writer })
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let asked = 0
    let reached: () => void = () => {}
    const atHeld = new Promise<void>((resolve) => {
      reached = resolve
    })
    network.intercept = async (sent) => {
      if (sent.path !== '/api/sync/pull') return undefined
      asked += 1
      const url = new URL(`${server.url}${sent.path}?${sent.query}`)
      url.searchParams.set('limit', '2')
      const answer = await fetch(url, { headers: { cookie: mentor.cookie ?? '' } })
      // The writer's second page is held until the sync has stopped.
      if (asked === 3) {
        reached()
        await held
      }
      return answer
    }
    const started = engine.start()
    await atHeld
    // The writer's first page is written.
    await expect.poll(() => writer.log.messages.some((m) => m.type === 'page')).toBe(true)
    const before = (await readTable(engine.db, 'topics')).length
    await engine.suspend()
    expect(await started).not.toMatchObject({ outcome: 'synced' })
    expect(writer.log.stopped).toBe(1)
    release()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(writer.log.messages.filter((m) => m.type === 'page')).toHaveLength(1)
    expect(await readTable(engine.db, 'topics')).toHaveLength(before)
  })
})

describe('a page written while the one before it is still being written', () => {
  /** A pull page of `ids` (topic rows as far as writing them goes) ending at `cursor`. */
  function pageOf(cursor: string, ids: string[]): PullResponse {
    const lists = () => ({
      topics: [],
      applications: [],
      feedback: [],
      notifications: [],
      users: [],
      interests: [],
      dismissals: [],
      invitations: [],
    })
    const changes = { ...lists(), preferences: null, settings: null }
    ;(changes.topics as unknown[]).push(
      ...ids.map((id) => ({
        id,
        version: 1,
        subject: id,
        createdAt: `2026-01-01T00:00:0${id.charCodeAt(0) % 10}.000Z`,
      })),
    )
    return { changes, removed: lists(), cursor, hasMore: true, reset: false } as PullResponse
  }

  it('is stored only on top of the page before it', async () => {
    const db = createSyncDb(`write-after-${randomUUID()}`)
    try {
      const tables = [...PULLED_STORES.map((t) => db.table(t)), db.meta]
      await setMeta(db, META.cursor, 'c1')
      // The first write follows a page that was never stored; the second is asked for behind it,
      // before it has ended, and follows it.
      const first = writeAfter(db, tables, pageOf('c2', ['a', 'b']), 'c0')
      const second = writeAfter(db, tables, pageOf('c3', ['c']), 'c2')
      await expect(first).rejects.toThrow('The page before this one was not written.')
      await expect(second).rejects.toThrow('The page before this one was not written.')
      expect(await readTable(db, 'topics')).toEqual([])
      expect(await getMeta(db, META.cursor)).toBe('c1')
      // In order, each on the one before: both stored, the cursor the last one's.
      const again = writeAfter(db, tables, pageOf('c2', ['a', 'b']), 'c1')
      const after = writeAfter(db, tables, pageOf('c3', ['c']), 'c2')
      expect(await again).toEqual({ changed: 2, removed: 0 })
      expect(await after).toEqual({ changed: 1, removed: 0 })
      // A first sync's pages: each page's topics in one record.
      expect((await readTable(db, 'topics')).map((t) => t.id).sort()).toEqual(['a', 'b', 'c'])
      expect(await db.packs.count()).toBe(2)
      expect(await getMeta(db, META.cursor)).toBe('c3')
    } finally {
      db.close()
      await Dexie.delete(db.name)
    }
  })
})
