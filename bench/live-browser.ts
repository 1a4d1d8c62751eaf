import type { Browser, Page } from 'playwright-core'

// The browser side of `npm run bench:live`: a signed-in page per device, its
// clock tied to Node's, and the moments a test needs read from inside the
// page (a click, an element appearing, a poke arriving, a pull's timing).

/** A page of one device, with the offset from its clock to Node's Date.now(). */
export type Device = { name: string; page: Page; offsetMs: number }

/**
 * Records, inside the page: pokes as the EventSource delivers them, and the
 * time of every click. Runs before the app's own scripts (an init script is
 * not subject to the page's Content-Security-Policy).
 */
const INSTRUMENT = `
  window.__live = { pokes: [], clicks: [] };
  performance.setResourceTimingBufferSize(100000);
  const now = () => performance.timeOrigin + performance.now();
  const Original = window.EventSource;
  window.EventSource = class extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener('poke', () => window.__live.pokes.push(now()));
    }
  };
  window.addEventListener('click', (e) => window.__live.clicks.push(performance.timeOrigin + e.timeStamp), true);
`

/** Opens a browser context signed in as `username` (dev-login), at `path`. */
export async function openDevice(
  browser: Browser,
  baseUrl: string,
  name: string,
  username: string,
  path: string,
): Promise<Device> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1280, height: 900 },
  })
  await context.addInitScript(INSTRUMENT)
  const res = await context.request.post(`${baseUrl}/api/auth/dev-login`, {
    data: { userId: username },
    headers: { origin: baseUrl },
  })
  if (!res.ok()) throw new Error(`dev-login as ${username}: ${res.status()} ${await res.text()}`)
  const page = await context.newPage()
  await page.goto(path)
  await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 60_000 })
  return { name, page, offsetMs: await clockOffset(page) }
}

/**
 * Page time minus Node time, from the round trip with the least delay of a
 * few: timestamps taken in the page become Node's with `- offsetMs`.
 */
export async function clockOffset(page: Page): Promise<number> {
  let best = { rtt: Number.POSITIVE_INFINITY, offset: 0 }
  for (let i = 0; i < 7; i++) {
    const before = Date.now()
    const inPage = await page.evaluate(() => performance.timeOrigin + performance.now())
    const after = Date.now()
    if (after - before < best.rtt)
      best = { rtt: after - before, offset: inPage - (before + after) / 2 }
  }
  return best.offset
}

/**
 * Starts watching for an element matching `selector` (and showing `text`, if
 * given) to be in the document; the answer resolves with the Node time it
 * appeared (a MutationObserver sees React's commit, before the paint).
 */
export async function watchFor(
  device: Device,
  selector: string,
  text?: string,
): Promise<() => Promise<number>> {
  const key = `seen-${Math.random().toString(36).slice(2)}`
  // A string, not a function: tsx would wrap a function's inner arrows in a helper the page lacks.
  await device.page.evaluate(`(() => {
    const selector = ${JSON.stringify(selector)}, text = ${JSON.stringify(text ?? null)}
    const present = () => [...document.querySelectorAll(selector)]
      .some((e) => text === null || (e.textContent || '').includes(text))
    const look = () => {
      if (window[${JSON.stringify(key)}] === undefined && present()) {
        window[${JSON.stringify(key)}] = performance.timeOrigin + performance.now()
        observer.disconnect()
      }
    }
    const observer = new MutationObserver(look)
    observer.observe(document.body, { childList: true, subtree: true, characterData: true })
    look()
  })()`)
  return async () => {
    const handle = await device.page.waitForFunction(
      (key) => (window as unknown as Record<string, number | undefined>)[key],
      key,
      { timeout: 30_000, polling: 50 },
    )
    return ((await handle.jsonValue()) ?? Number.NaN) - device.offsetMs
  }
}

/**
 * One request as resource timing saw it: start and end (page time until
 * readTrace turns them into Node's), and its parts in ms: `toSend` from the
 * fetch call to the request's first byte (the service worker's fetch event
 * and the connection), `wait` from there to the answer's first byte (the
 * server), `body` the answer's download.
 */
export type Fetched = { start: number; end: number; toSend: number; wait: number; body: number }

/** What the page recorded: pokes and clicks (Node time), pulls (resource timing, Node time). */
export async function readTrace(device: Device) {
  const trace: {
    pokes: number[]
    clicks: number[]
    pulls: Fetched[]
    pushes: Fetched[]
  } = await device.page.evaluate(`(() => ({
    pokes: window.__live.pokes,
    clicks: window.__live.clicks,
    pulls: performance.getEntriesByType('resource')
      .filter((e) => e.name.includes('/api/sync/pull'))
      .map((e) => ({ start: performance.timeOrigin + e.startTime, end: performance.timeOrigin + e.responseEnd, toSend: e.requestStart - e.startTime, wait: e.responseStart - e.requestStart, body: e.responseEnd - e.responseStart })),
    pushes: performance.getEntriesByType('resource')
      .filter((e) => e.name.includes('/api/sync/push'))
      .map((e) => ({ start: performance.timeOrigin + e.startTime, end: performance.timeOrigin + e.responseEnd, toSend: e.requestStart - e.startTime, wait: e.responseStart - e.requestStart, body: e.responseEnd - e.responseStart })),
  }))()`)
  const node = (t: number) => t - device.offsetMs
  return {
    pokes: trace.pokes.map(node),
    clicks: trace.clicks.map(node),
    pulls: trace.pulls.map((p) => ({ ...p, start: node(p.start), end: node(p.end) })),
    pushes: trace.pushes.map((p) => ({ ...p, start: node(p.start), end: node(p.end) })),
  }
}
