import type { BrowserContext, CDPSession, Page } from 'playwright-core'
import { baseUrl } from './browser.ts'

/**
 * Helpers for the service worker tests: waiting until the worker controls a
 * page, reading the worker's caches, and the DevTools protocol's view of
 * service worker registrations (to deliver a push message).
 */

/** Waits until the page is controlled by an activated service worker; answers its script URL. */
export async function waitForController(page: Page): Promise<string> {
  try {
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
      timeout: 20_000,
    })
  } catch (error) {
    const state = await page.evaluate(async () => {
      const r = await navigator.serviceWorker.getRegistration()
      return JSON.stringify({
        registered: !!r,
        active: r?.active?.state,
        installing: r?.installing?.state,
        waiting: r?.waiting?.state,
      })
    })
    throw new Error(`No service worker controls the page: ${state}`, { cause: error })
  }
  return page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? '')
}

/** Every URL in the page's Cache Storage. */
export function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = []
    for (const name of await caches.keys()) {
      const cache = await caches.open(name)
      for (const request of await cache.keys()) urls.push(request.url)
    }
    return urls
  })
}

/**
 * A DevTools session that follows service worker registrations: answers the
 * id of the (live) registration for this origin once the browser reports it.
 */
export async function serviceWorkerRegistrationId(
  context: BrowserContext,
  page: Page,
): Promise<{ cdp: CDPSession; registrationId: string }> {
  const cdp = await context.newCDPSession(page)
  const scope = `${baseUrl()}/`
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const live = registrations.find((r) => r.scopeURL === scope && !r.isDeleted)
      if (live) resolve(live.registrationId)
    })
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      const running = versions.find((v) => v.scriptURL.startsWith(scope))
      if (running) resolve(running.registrationId)
    })
  })
  await cdp.send('ServiceWorker.enable')
  return { cdp, registrationId: await withTimeout(found, 10_000, 'no service worker registration') }
}

/** The notifications the page's service worker registration shows now. */
export function shownNotifications(page: Page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready
    return (await registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      icon: n.icon,
      data: n.data as unknown,
    }))
  })
}

/** Reads a PNG's width and height from its header. */
export function pngSize(bytes: Buffer): { width: number; height: number } {
  const signature = bytes.subarray(0, 8).toString('hex')
  if (signature !== '89504e470d0a1a0a') throw new Error('not a PNG')
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`Timed out: ${what}`)), ms)),
  ])
}
