import type { Page } from 'playwright-core'

// The in-page side of `npm run bench:client`: what the page records from its
// first script on (first card, layout shifts, long tasks) and the figures read
// or timed inside it with performance.now(). Every script is a string, not a
// function: tsx would wrap a function's inner arrows in a helper the page lacks.

/**
 * Runs before the app's own scripts in every document of a context: the
 * moment the first topic card is in the document and the next frame after it
 * (painted), layout shifts without recent input and long tasks (buffered).
 */
export const INSTRUMENT = `(() => {
  const b = (window.__bench = {
    firstCard: null, firstCardPainted: null, appCard: null, appCardPainted: null, snapshot: false,
    shifts: [], longTasks: [],
  })
  performance.setResourceTimingBufferSize(100000)
  const afterPaint = (done) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel()
      channel.port1.onmessage = () => done(performance.now())
      channel.port2.postMessage(0)
    })
  b.afterPaint = afterPaint
  // The first card on screen, a return visit's snapshot's (decision 0050) or the app's own,
  // and the app's own first card (in #root, drawn from IndexedDB).
  const look = () => {
    if (document.getElementById('snapshot')) b.snapshot = true
    if (b.firstCard === null && document.querySelector('[data-testid="topic-card"]')) {
      b.firstCard = performance.now()
      afterPaint((t) => { b.firstCardPainted = t })
    }
    if (b.appCard === null && document.querySelector('#root [data-testid="topic-card"]')) {
      b.appCard = performance.now()
      observer.disconnect()
      afterPaint((t) => { b.appCardPainted = t })
    }
  }
  const observer = new MutationObserver(look)
  observer.observe(document, { childList: true, subtree: true })
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) b.shifts.push({ t: e.startTime, v: e.value })
    }).observe({ type: 'layout-shift', buffered: true })
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) b.longTasks.push({ t: e.startTime, d: e.duration })
    }).observe({ type: 'longtask', buffered: true })
  } catch {}
})()`

/** A figure that could not be taken: why, as printed in its cell ("timed out after 90 s"). */
export type Missing = { missing: string }
export type Figure = number | Missing

export function isMissing(value: unknown): value is Missing {
  return typeof value === 'object' && value !== null && 'missing' in value
}

/** Runs `work` with a time limit; past it, the figure is missing (the work is left to run). */
export async function within<T>(seconds: number, work: Promise<T>): Promise<T | Missing> {
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<Missing>((resolve) => {
    timer = setTimeout(() => resolve({ missing: `timed out after ${seconds} s` }), seconds * 1000)
  })
  try {
    return await Promise.race([
      work.catch((error: unknown) => ({
        missing: `failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      })),
      limit,
    ])
  } finally {
    clearTimeout(timer)
  }
}

type Bench = { firstCardPainted: number | null; appCardPainted: number | null; snapshot: boolean }

/**
 * Milliseconds from the navigation to the frame after the first topic card
 * appeared: any card, a return visit's snapshot's too, or with `app` the
 * app's own (drawn from its data).
 */
export async function firstCard(page: Page, seconds: number, app = false): Promise<Figure> {
  return within(
    seconds,
    page
      // A function, not a string: waitForFunction evaluates a string with eval, which the CSP blocks.
      .waitForFunction(
        (own) => {
          const b = (window as unknown as { __bench?: Bench }).__bench
          return own ? b?.appCardPainted : b?.firstCardPainted
        },
        app,
        { timeout: 0, polling: 50 },
      )
      .then(async (handle) => Number(await handle.jsonValue())),
  )
}

/** Whether a return visit's snapshot was put up in this document. */
export async function snapshotShown(page: Page): Promise<boolean> {
  return page.evaluate<boolean>(`Boolean(window.__bench && window.__bench.snapshot)`)
}

/** First contentful paint of the current document, in ms (missing if none yet). */
export async function firstContentfulPaint(page: Page): Promise<Figure> {
  const fcp = await page.evaluate<number | null>(
    `(performance.getEntriesByName('first-contentful-paint')[0] || { startTime: null }).startTime`,
  )
  return fcp ?? { missing: 'no paint' }
}

type SyncMeta = { at: number; seen: number; origin: number }

/** Reads `lastSyncedAt` from the user's IndexedDB database (`pairwise-<id>`, store `meta`). */
function readLastSynced(page: Page, userId: string): Promise<SyncMeta | null> {
  return page.evaluate<SyncMeta | null>(`(async () => {
    const name = ${JSON.stringify(`pairwise-${userId}`)}
    if (!(await indexedDB.databases()).some((d) => d.name === name)) return null
    return new Promise((resolve) => {
      const req = indexedDB.open(name)
      req.onupgradeneeded = () => req.transaction.abort()
      req.onerror = () => resolve(null)
      req.onblocked = () => resolve(null)
      req.onsuccess = () => {
        const db = req.result
        db.onversionchange = () => db.close()
        if (!db.objectStoreNames.contains('meta')) { db.close(); resolve(null); return }
        const get = db.transaction('meta').objectStore('meta').get('lastSyncedAt')
        get.onsuccess = () => {
          db.close()
          resolve(get.result ? { at: get.result.value, seen: performance.now(), origin: performance.timeOrigin } : null)
        }
        get.onerror = () => { db.close(); resolve(null) }
      }
    })
  })()`)
}

/**
 * Waits until the first sync has stored `lastSyncedAt` (its last page's
 * transaction). `end`: that moment, from the value the engine wrote
 * (Date.now() in the transaction), in ms since navigation; `seen`: when a
 * poll every 250 ms from the page first read it.
 */
export async function syncEnd(
  page: Page,
  userId: string,
  seconds: number,
): Promise<{ end: number; seen: number } | Missing> {
  const poll = async () => {
    for (;;) {
      const meta = await readLastSynced(page, userId)
      if (meta) return { end: meta.at - meta.origin, seen: meta.seen }
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  return within(seconds, poll())
}

export type PullTiming = {
  start: number
  end: number
  transfer: number
  encoded: number
  decoded: number
}

/** The page's /api/sync/pull requests, from resource timing (ms since navigation, bytes). */
export function pullRequests(page: Page): Promise<PullTiming[]> {
  return page.evaluate<PullTiming[]>(`performance.getEntriesByType('resource')
    .filter((e) => e.name.includes('/api/sync/pull'))
    .map((e) => ({ start: e.startTime, end: e.responseEnd, transfer: e.transferSize,
                   encoded: e.encodedBodySize, decoded: e.decodedBodySize }))`)
}

/** Long tasks of the current document that started before `until` (ms since navigation). */
export async function longTasksUntil(
  page: Page,
  until: number,
): Promise<{ count: number; ms: number }> {
  const tasks = await page.evaluate<{ t: number; d: number }[]>('window.__bench.longTasks')
  const before = tasks.filter((task) => task.t < until)
  return { count: before.length, ms: before.reduce((a, task) => a + task.d, 0) }
}

/**
 * The pull requests of a page and of its workers (a first sync's pages after
 * the first are fetched by the page writer's worker, whose requests are not in
 * the page's resource timing), as the browser reports them to Playwright,
 * in ms since the page's navigation. Call before the navigation; the answer
 * lists the requests finished so far.
 */
export function watchPullRequests(page: Page): () => Promise<PullTiming[]> {
  const finished: Promise<PullTiming & { at: number }>[] = []
  page.on('requestfinished', (request) => {
    if (!request.url().includes('/api/sync/pull')) return
    const timing = request.timing()
    finished.push(
      (async () => {
        const [sizes, response] = await Promise.all([request.sizes(), request.response()])
        const body = response ? await response.body().catch(() => null) : null
        const decoded = body ? body.byteLength : 0
        return {
          at: timing.startTime,
          start: 0,
          end: timing.responseEnd,
          transfer: sizes.responseBodySize + sizes.responseHeadersSize,
          encoded: sizes.responseBodySize,
          decoded,
        }
      })(),
    )
  })
  return async () => {
    const origin = await page.evaluate<number>('performance.timeOrigin')
    return (await Promise.all(finished))
      .map(({ at, end, ...rest }) => ({ ...rest, start: at - origin, end: at - origin + end }))
      .sort((a, b) => a.start - b.start)
  }
}

export type Floor = { ms: number; pages: number; encodings: string[]; requests: PullTiming[] }

/**
 * The fetch-only floor: a plain `fetch` loop over /api/sync/pull from the
 * beginning until `hasMore` is false, each answer parsed for its cursor, in
 * the page (same user, same pages, nothing stored).
 */
export async function fetchFloor(page: Page): Promise<Floor> {
  const run = await page.evaluate<{
    ms: number
    pages: number
    encodings: string[]
    t0: number
  }>(`(async () => {
    const t0 = performance.now()
    const encodings = new Set()
    let cursor, pages = 0
    for (;;) {
      const query = cursor === undefined ? '' : '?' + new URLSearchParams({ cursor })
      const res = await fetch('/api/sync/pull' + query, { headers: { accept: 'application/json' }, credentials: 'same-origin' })
      if (!res.ok) throw new Error('pull answered ' + res.status)
      encodings.add(res.headers.get('content-encoding') || 'identity')
      const page = await res.json()
      pages += 1
      if (!page.hasMore) break
      cursor = page.cursor
    }
    return { ms: performance.now() - t0, pages, encodings: [...encodings], t0 }
  })()`)
  const requests = (await pullRequests(page)).filter((r) => r.start >= run.t0)
  return { ms: run.ms, pages: run.pages, encodings: run.encodings, requests }
}

/** The store floor: the fetch loop's pages, each written with plain IndexedDB puts. */
export type StoreFloor = { ms: number; pages: number; rows: number }

/**
 * The fetch-and-store floor: the fetch loop of `fetchFloor`, and every row of
 * each page put with plain IndexedDB (no Dexie, no checks, no overlay) into a
 * scratch database with the app's stores and indexes (`stores`, Dexie's
 * syntax), one transaction per page with the cursor, relaxed durability as
 * the app's page writer. Each page's transaction starts as its answer is
 * parsed and the next request leaves at once: the least a device can do to
 * hold the same rows. The scratch database is deleted afterwards.
 */
export async function storeFloor(page: Page, stores: Record<string, string>): Promise<StoreFloor> {
  return page.evaluate<StoreFloor>(`(async () => {
    const stores = ${JSON.stringify(stores)}
    const name = 'bench-store-floor-' + Math.random().toString(36).slice(2)
    const keyPathOf = (part) => part.startsWith('[') ? part.slice(1, -1).split('+') : part
    const db = await new Promise((resolve, reject) => {
      const open = indexedDB.open(name, 1)
      open.onupgradeneeded = () => {
        for (const [table, spec] of Object.entries(stores)) {
          const [primary, ...indexes] = spec.split(',').map((p) => p.trim())
          const auto = primary.startsWith('++')
          const key = auto ? primary.slice(2) : primary.startsWith('&') ? primary.slice(1) : primary
          const store = open.result.createObjectStore(table, key === '' ? { autoIncrement: auto } : { keyPath: keyPathOf(key), autoIncrement: auto })
          for (const index of indexes) {
            const bare = index.startsWith('&') || index.startsWith('*') ? index.slice(1) : index
            store.createIndex(bare, keyPathOf(bare), { unique: index.startsWith('&'), multiEntry: index.startsWith('*') })
          }
        }
        open.result.createObjectStore('bench-meta')
      }
      open.onsuccess = () => resolve(open.result)
      open.onerror = () => reject(open.error)
    })
    const t0 = performance.now()
    let cursor, pages = 0, rows = 0, last = Promise.resolve()
    for (;;) {
      const query = cursor === undefined ? '' : '?' + new URLSearchParams({ cursor })
      const res = await fetch('/api/sync/pull' + query, { headers: { accept: 'application/json' }, credentials: 'same-origin' })
      if (!res.ok) throw new Error('pull answered ' + res.status)
      const body = await res.json()
      const tables = Object.keys(stores).filter((t) => Array.isArray(body.changes[t]) && body.changes[t].length > 0)
      const tx = db.transaction([...tables, 'bench-meta'], 'readwrite', { durability: 'relaxed' })
      for (const t of tables) {
        const store = tx.objectStore(t)
        for (const row of body.changes[t]) store.put(row)
        rows += body.changes[t].length
      }
      tx.objectStore('bench-meta').put(body.cursor, 'cursor')
      last = new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); tx.onabort = () => reject(tx.error) })
      pages += 1
      if (!body.hasMore) break
      cursor = body.cursor
    }
    await last
    const ms = performance.now() - t0
    db.close()
    await new Promise((resolve) => { const del = indexedDB.deleteDatabase(name); del.onsuccess = del.onerror = del.onblocked = resolve })
    return { ms, pages, rows }
  })()`)
}

/** DOM elements and JS heap in use after two garbage collections (needs --expose-gc). */
export function atRest(page: Page): Promise<{ nodes: number; heap: number; cards: number }> {
  return page.evaluate(`(async () => {
    gc()
    await new Promise((resolve) => setTimeout(resolve, 200))
    gc()
    return {
      nodes: document.getElementsByTagName('*').length,
      heap: performance.memory.usedJSHeapSize,
      cards: document.querySelectorAll('[data-testid="topic-card"]').length,
    }
  })()`)
}

/**
 * Arms a measurement: from the next `event` (its timeStamp: pointerdown for
 * a click, keydown for a key) to the frame after the topic list next changed
 * (a MutationObserver on the list and its container, then
 * requestAnimationFrame and a message: the paint has happened). Collect the
 * answer with `listChanged`.
 */
export async function armListChange(
  page: Page,
  event: 'pointerdown' | 'keydown',
  seconds: number,
): Promise<void> {
  await page.evaluate(`(() => {
    const b = window.__bench
    const list = document.querySelector('[role="list"][aria-label="Topics"]')
    const host = list ? list.parentElement : document.querySelector('main')
    let start = null
    const onInput = (e) => { if (start === null) start = e.timeStamp }
    window.addEventListener(${JSON.stringify(event)}, onInput, true)
    b.pending = new Promise((resolve) => {
      const done = (value) => { window.removeEventListener(${JSON.stringify(event)}, onInput, true); resolve(value) }
      const timer = setTimeout(() => { observer.disconnect(); done(null) }, ${seconds * 1000})
      const observer = new MutationObserver((records) => {
        if (start === null) return
        if (!records.some((r) => r.target === host || (list && list.contains(r.target)))) return
        observer.disconnect()
        clearTimeout(timer)
        b.afterPaint((painted) => done(painted - start))
      })
      observer.observe(host, { childList: true, subtree: true, characterData: true })
    })
  })()`)
}

/** The armed measurement's answer in ms, or null when the list did not change in time. */
export function listChanged(page: Page): Promise<number | null> {
  return page.evaluate<number | null>('window.__bench.pending')
}

export type Scroll = {
  steps: number
  ms: number
  frames: number
  over16: number
  over50: number
  longest: number
  longTasks: number
  longTaskMs: number
  scrolled: number
  height: number
}

/**
 * Scrolls the window down `steps` × `px` (one step a frame) while a
 * requestAnimationFrame loop times each frame and a PerformanceObserver
 * counts long tasks. From the top, or with `onward` from where the page
 * stands when the whole distance fits below it (rows not drawn yet), else
 * from the top.
 */
export function scrollDown(page: Page, steps: number, px: number, onward = false): Promise<Scroll> {
  return page.evaluate<Scroll>(`(async () => {
    const room = document.documentElement.scrollHeight - window.scrollY - window.innerHeight
    if (!${onward} || room < ${steps * px}) window.scrollTo(0, 0)
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
    const gaps = []
    let last = performance.now(), running = true
    const loop = (t) => { gaps.push(t - last); last = t; if (running) requestAnimationFrame(loop) }
    requestAnimationFrame(loop)
    const tasks = []
    const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) tasks.push(e.duration) })
    observer.observe({ type: 'longtask' })
    const t0 = performance.now()
    for (let i = 0; i < ${steps}; i++) {
      window.scrollBy(0, ${px})
      await new Promise((resolve) => requestAnimationFrame(resolve))
    }
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
    const ms = performance.now() - t0
    running = false
    observer.disconnect()
    const frames = gaps.slice(1)
    return {
      steps: ${steps}, ms, frames: frames.length,
      over16: frames.filter((g) => g > 1000 / 60 + 1).length,
      over50: frames.filter((g) => g > 50).length,
      longest: Math.max(0, ...frames),
      longTasks: tasks.length, longTaskMs: tasks.reduce((a, b) => a + b, 0),
      scrolled: window.scrollY, height: document.documentElement.scrollHeight,
    }
  })()`)
}

/** Script resources of the current document: count, bytes on the wire (encoded body) and decoded. */
export function scriptBytes(
  page: Page,
): Promise<{ count: number; encoded: number; decoded: number; transfer: number }> {
  return page.evaluate(`(() => {
    const scripts = performance.getEntriesByType('resource')
      .filter((e) => /\\.m?js$/.test(new URL(e.name).pathname))
    const sum = (key) => scripts.reduce((a, e) => a + e[key], 0)
    return { count: scripts.length, encoded: sum('encodedBodySize'), decoded: sum('decodedBodySize'), transfer: sum('transferSize') }
  })()`)
}

/**
 * Cumulative layout shift of the current document: the largest session
 * window (shifts less than 1 s apart, at most 5 s long) of the shifts
 * without recent input, as Lighthouse and web-vitals count it.
 */
export async function layoutShift(page: Page): Promise<number> {
  const shifts = await page.evaluate<{ t: number; v: number }[]>('window.__bench.shifts')
  let best = 0
  let current = 0
  let first = Number.NEGATIVE_INFINITY
  let previous = Number.NEGATIVE_INFINITY
  for (const s of [...shifts].sort((a, b) => a.t - b.t)) {
    if (s.t - previous > 1000 || s.t - first > 5000) {
      current = 0
      first = s.t
    }
    current += s.v
    previous = s.t
    best = Math.max(best, current)
  }
  return best
}
