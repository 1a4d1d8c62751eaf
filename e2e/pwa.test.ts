import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiAs, openApp, screenshotWidths, uniqueName, waitForShell } from './app.ts'
import { baseUrl, launchBrowser, openPage, signIn } from './browser.ts'
import { chromiumPath } from './chromium.ts'
import {
  cachedUrls,
  pngSize,
  serviceWorkerRegistrationId,
  shownNotifications,
  waitForController,
} from './service-worker.ts'

/**
 * The installable, offline app (issue 7): the service worker installs and
 * controls the page, the app opens offline at any route with its data, API
 * answers never come from the worker's cache, a push shows a notification,
 * and the manifest is installable. (The update prompt and the push setting:
 * pwa-prompts.test.ts.)
 */
let browser: Browser
let topic: { id: string; subject: string }

beforeAll(async () => {
  browser = await launchBrowser()
  const admin = await ApiAs.signIn(browser, 'admin')
  topic = await admin.createTopic({ subject: uniqueName('Offline topic') })
  await admin.review(topic.id, 'approved')
  await admin.dispose()
})

afterAll(async () => {
  await browser?.close()
})

describe('installable and offline', () => {
  it("installs on a first visit once the first sync has ended, not beside it (the precache's sixty requests slowed it)", async () => {
    const opened = await openPage(browser, { width: 1280, height: 800 })
    try {
      await signIn(opened.context, 'admin')
      const events = serviceWorkerAsked(opened.context)
      const held = gate()
      const asked = gate()
      // The first pull is held: the first sync cannot end until it is let go.
      await opened.context.route('**/api/sync/pull**', async (route) => {
        asked.open()
        await held.passed
        await route.continue()
      })
      await opened.page.goto('/topics')
      await waitForShell(opened.page)
      await asked.passed
      // Unchanged, the worker was asked for some 100 ms after the screen's code.
      await opened.page.waitForTimeout(1_500)
      expect(events).toEqual([])
      expect(await opened.page.evaluate(() => navigator.serviceWorker.getRegistration())).toBe(
        undefined,
      )
      events.push('pull let go')
      held.open()
      expect(await waitForController(opened.page)).toBe(`${baseUrl()}/sw.js`)
      expect(events).toEqual(['pull let go', 'sw.js asked'])
    } finally {
      await opened.context.close()
    }
  })

  it('a first visit offline by the time its first sync ends installs once the network is back', async () => {
    const opened = await openPage(browser, { width: 1280, height: 800 })
    try {
      const user = await signIn(opened.context, uniqueName('offline-first-visit'))
      const events = serviceWorkerAsked(opened.context)
      const held = gate()
      // The pull's answers are fetched from Node (online) and handed over only once let go.
      await opened.context.route('**/api/sync/pull**', async (route) => {
        const response = await route.fetch()
        await held.passed
        await route.fulfill({ response })
      })
      await opened.page.goto('/topics')
      await waitForShell(opened.page)
      await opened.context.setOffline(true)
      held.open()
      // The first sync ends, offline: fetching sw.js now would fail (and be logged).
      await expect
        .poll(() => lastSyncedAt(opened.page, user.id), { timeout: 20_000 })
        .not.toBe(null)
      await opened.page.waitForTimeout(1_500)
      expect(events).toEqual([])
      events.push('online again')
      await opened.context.setOffline(false)
      expect(await waitForController(opened.page)).toBe(`${baseUrl()}/sw.js`)
      expect(events).toEqual(['online again', 'sw.js asked'])
      expect(opened.consoleErrors.filter((e) => !/net::ERR_INTERNET_DISCONNECTED/.test(e))).toEqual(
        [],
      )
    } finally {
      await opened.context.close()
    }
  })

  it('installs a service worker and passes the installability checks', async () => {
    const app = await openApp(browser, 'admin')
    expect(await waitForController(app.page)).toBe(`${baseUrl()}/sw.js`)
    await app.expectClean()
    await app.close()

    // Chromium never offers to install from an incognito context: ask a profile on disk.
    const profile = await mkdtemp(join(tmpdir(), 'pairwise-pwa-profile-'))
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath(),
      args: ['--no-sandbox', '--disable-gpu'],
      baseURL: baseUrl(),
    })
    try {
      await signIn(context, 'admin')
      const page = context.pages()[0] ?? (await context.newPage())
      await page.goto('/')
      await waitForShell(page)
      await waitForController(page)
      const cdp = await context.newCDPSession(page)
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
      expect(installabilityErrors).toEqual([])
      const { errors } = await cdp.send('Page.getAppManifest')
      expect(errors).toEqual([])
    } finally {
      await context.close()
      await rm(profile, { recursive: true, force: true })
    }

    const manifest = await (await fetch(`${baseUrl()}/manifest.webmanifest`)).json()
    expect(manifest).toMatchObject({
      name: 'Pairwise Mentorship',
      short_name: 'Pairwise',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: '#4f46e5',
      background_color: '#f8fafc',
    })
    expect(manifest.shortcuts.map((s: { url: string }) => s.url)).toEqual(['/topics', '/dashboard'])
    const icons = [...manifest.icons, ...manifest.shortcuts.flatMap((s: { icons: [] }) => s.icons)]
    expect(icons.some((i: { purpose?: string }) => i.purpose === 'maskable')).toBe(true)
    for (const icon of icons as { src: string; sizes: string }[]) {
      const res = await fetch(`${baseUrl()}${icon.src}`)
      expect(res.headers.get('content-type')).toBe('image/png')
      const { width, height } = pngSize(Buffer.from(await res.arrayBuffer()))
      expect(`${width}x${height}`).toBe(icon.sizes)
    }
  })

  it('sends API requests to the network without waking the service worker', async () => {
    const app = await openApp(browser, 'admin')
    const { page } = app
    await waitForController(page)
    // The worker's static routes (Chromium): an API request matches the rule that sends it
    // to the network, without a fetch event (or starting a stopped worker); a file of the
    // shell matches none and is answered by the worker from its cache.
    const timing = await page.evaluate(async () => {
      const from = performance.now()
      await (await fetch('/api/user', { credentials: 'include' })).text()
      await (await fetch('/manifest.webmanifest')).text()
      const routed = (part: string) => {
        const entry = performance
          .getEntriesByType('resource')
          .find((e) => e.name.includes(part) && e.startTime >= from) as
          | (PerformanceResourceTiming & { workerMatchedSourceType?: string })
          | undefined
        return (
          entry && { matched: entry.workerMatchedSourceType, controlled: entry.workerStart > 0 }
        )
      }
      return { api: routed('/api/user'), shell: routed('/manifest.webmanifest') }
    })
    expect(timing.shell).toEqual({ matched: '', controlled: true })
    expect(timing.api).toEqual({ matched: 'network', controlled: true })
    await app.expectClean()
    await app.close()
  })

  it('opens offline at any route with its data, and never answers the API from a cache', async () => {
    const app = await openApp(browser, 'admin', { path: '/topics' })
    const { page, context } = app
    await waitForController(page)
    await page.getByText(topic.subject).first().waitFor({ timeout: 20_000 })
    expect((await cachedUrls(page)).filter((url) => url.includes('/api/'))).toEqual([])

    await context.setOffline(true)
    for (const path of ['/', '/topics', '/dashboard', `/topics/${topic.id}`]) {
      await page.goto(path)
      await waitForShell(page)
      await page.getByRole('heading', { level: 1 }).first().waitFor()
      if (path.startsWith('/topics')) await page.getByText(topic.subject).first().waitFor()
      await expect
        .poll(() => page.getByText("You're offline").isVisible(), { timeout: 10_000 })
        .toBe(true)
    }
    await screenshotWidths(page, 'pwa-offline-topic')
    // What the first paint waits on is asked for first: the stylesheet, then boot.js (the
    // screen as last seen), then the app's modules (vite.config.ts, paintFirst).
    const order = await page.evaluate(() =>
      [
        ...document.head.querySelectorAll('link[rel="stylesheet"], link[rel="preload"], script'),
      ].map((el) => el.getAttribute('rel') ?? el.getAttribute('type') ?? 'script'),
    )
    expect(order.slice(0, 3)).toEqual(['stylesheet', 'preload', 'module'])
    const apiOffline = await page.evaluate(() =>
      fetch('/api/user', { credentials: 'include' }).then(
        (res) => `answered ${res.status}`,
        () => 'failed',
      ),
    )
    expect(apiOffline).toBe('failed')
    await context.setOffline(false)
    await app.expectClean()
    await app.close()
  })

  it('pokes the open app on a push, and shows the message as a notification only when the app is not in use', async () => {
    const app = await openApp(browser, 'admin')
    const { page, context } = app
    await context.grantPermissions(['notifications'], { origin: baseUrl() })
    await waitForController(page)
    await page.evaluate(() => {
      const w = window as unknown as { swMessages: unknown[] }
      w.swMessages = []
      navigator.serviceWorker.addEventListener('message', (e) => w.swMessages.push(e.data))
    })
    const { cdp, registrationId } = await serviceWorkerRegistrationId(context, page)
    const payload = {
      title: 'New application',
      body: 'Someone applied to your topic.',
      url: `/topics/${topic.id}`,
      tag: 'push-test',
      notificationId: crypto.randomUUID(),
    }
    const deliver = () =>
      cdp.send('ServiceWorker.deliverPushMessage', {
        origin: baseUrl(),
        registrationId,
        data: JSON.stringify(payload),
      })

    // In use (visible and focused): the app is poked to pull, and no system notification shows.
    await deliver()
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { swMessages: unknown[] }).swMessages))
      .toContainEqual({ type: 'sync-poke' })
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(await shownNotifications(page)).toEqual([])

    // Not in use (no window of the app open): the notification shows.
    await page.goto('about:blank')
    await deliver()
    await page.goto(`${baseUrl()}/dashboard`)
    await waitForController(page)
    await expect
      .poll(() => shownNotifications(page), { timeout: 10_000 })
      .toEqual([
        {
          title: payload.title,
          body: payload.body,
          tag: 'push-test',
          icon: `${baseUrl()}/icon-192.png`,
          data: { url: payload.url },
        },
      ])
    await app.expectClean()
    await app.close()
  })
})

/** A promise (`passed`) that resolves once `open` is called. */
function gate(): { passed: Promise<void>; open: () => void } {
  let open = () => {}
  const passed = new Promise<void>((resolve) => {
    open = resolve
  })
  return { passed, open }
}

/** A log of the context's events: 'sw.js asked' is added each time the worker's script is requested. */
function serviceWorkerAsked(context: BrowserContext): string[] {
  const events: string[] = []
  context.on('request', (request) => {
    if (new URL(request.url()).pathname === '/sw.js') events.push('sw.js asked')
  })
  return events
}

/** The sync time in the user's database on this device (`pairwise-<id>`), or null. */
function lastSyncedAt(page: Page, userId: string): Promise<number | null> {
  return page.evaluate(
    (name) =>
      new Promise<number | null>((resolve) => {
        const open = indexedDB.open(name)
        open.onerror = () => resolve(null)
        open.onsuccess = () => {
          const db = open.result
          if (!db.objectStoreNames.contains('meta')) {
            db.close()
            return resolve(null)
          }
          const read = db.transaction('meta').objectStore('meta').get('lastSyncedAt')
          read.onsuccess = () => {
            db.close()
            resolve((read.result as { value?: number } | undefined)?.value ?? null)
          }
          read.onerror = () => {
            db.close()
            resolve(null)
          }
        }
      }),
    `pairwise-${userId}`,
  )
}
