import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core'
import { expect } from 'vitest'
import { baseUrl, type OpenPage, openPage, screenshot, signIn } from './browser.ts'

/**
 * Helpers for browser tests of the signed-in app: a page signed in as
 * someone, waiting until the shell is up; accessibility checks with
 * axe-core; screenshots at phone and desktop widths; API calls to set up
 * data as a given user.
 */

export const PHONE = { width: 375, height: 812 } as const
export const TABLET = { width: 768, height: 1024 } as const
export const DESKTOP = { width: 1280, height: 800 } as const

export type AppPage = OpenPage & {
  user: { id: string; username: string; isAdmin: boolean }
  /** Fails the test when the page logged an error, threw, or broke the CSP. */
  expectClean: () => Promise<void>
}

/** A unique username for this run (the e2e database is shared by the files of one run). */
/**
 * The ids of the topics in the signed-in user's database on this device (a
 * script for `page.evaluate`): those stored one per record and those a first
 * sync stored one record per page (pwa/src/sync/engine/packs.ts).
 */
export const STORED_TOPIC_IDS = `(async () => {
  const names = (await indexedDB.databases()).map((d) => d.name).filter((n) => n && n.startsWith('pairwise-'))
  const ids = []
  const all = (request) => new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
  for (const name of names) {
    const db = await all(indexedDB.open(name))
    if (db.objectStoreNames.contains('topics')) {
      ids.push(...(await all(db.transaction('topics', 'readonly').objectStore('topics').getAllKeys())))
    }
    if (db.objectStoreNames.contains('packs')) {
      const packs = await all(db.transaction('packs', 'readonly').objectStore('packs').getAll())
      for (const pack of packs) if (pack.table === 'topics') ids.push(...pack.rows.map((row) => row.id))
    }
    db.close()
  }
  return [...new Set(ids)]
})()`

export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`
}

/**
 * A page signed in as `username` (created if new; `admin` is the seeded
 * administrator), opened at `path`, once the app's navigation bar shows.
 */
export async function openApp(
  browser: Browser,
  username: string,
  options: { path?: string; width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<AppPage> {
  const opened = await openPage(browser, {
    width: options.width ?? DESKTOP.width,
    height: options.height ?? DESKTOP.height,
    ...(options.colorScheme ? { colorScheme: options.colorScheme } : {}),
  })
  const user = await signIn(opened.context, username)
  await opened.page.goto(options.path ?? '/')
  await waitForShell(opened.page)
  return {
    ...opened,
    user,
    expectClean: async () => {
      expect(opened.pageErrors.map(String)).toEqual([])
      expect(opened.consoleErrors.filter((e) => !isExpectedConsoleError(e))).toEqual([])
      expect(await opened.cspViolations()).toEqual([])
    },
  }
}

/** Network failures the browser logs itself while a test has taken the network away. */
function isExpectedConsoleError(text: string): boolean {
  return /net::ERR_INTERNET_DISCONNECTED|Failed to load resource: net::ERR_|An unknown error occurred when fetching the script/.test(
    text,
  )
}

/**
 * Waits until the signed-in shell (the main navigation) has rendered and a
 * return visit's snapshot of the screen (decision 0050) is down, so that what
 * a test reads next is the app's own screen.
 */
export async function waitForShell(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 20_000 })
  await page.locator('#snapshot').waitFor({ state: 'detached', timeout: 20_000 })
}

/**
 * Waits until the sync status says nothing is waiting to be sent, the
 * start's own write included: once the first sync has brought the
 * preferences, the app saves the browser's time zone (issue 18), and a
 * first sync can end before that write is queued.
 */
export async function waitForSynced(page: Page): Promise<void> {
  const saved = page.getByRole('button', { name: 'Sync status: All changes saved' })
  await saved.waitFor({ timeout: 30_000 })
  const preferences = new URL('/api/user/notification-preferences', page.url()).href
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(preferences)).json()) as { timeZone: unknown }).timeZone,
      { timeout: 30_000 },
    )
    .not.toBeNull()
  await saved.waitFor({ timeout: 30_000 })
}

const require = createRequire(import.meta.url)
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: string[] }

/**
 * Runs axe-core on the page (injected through the DevTools protocol, which
 * the page's CSP does not govern) and answers the serious and critical
 * violations, each with the selectors of its elements.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  // Colours are judged once transitions (a button turning enabled, a dialog fading in) end:
  // first Headless UI's (it marks an element entering or leaving), then any CSS animation.
  await page
    .waitForFunction(
      () => !document.querySelector('[data-enter], [data-leave], [data-transition]'),
      undefined,
      { timeout: 3_000 },
    )
    .catch(() => undefined)
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ]),
  )
  const { violations } = await runAxe(page, { resultTypes: ['violations'] })
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
}

/** Runs axe-core in the page with `options`; each result's nodes as selectors. */
async function runAxe(
  page: Page,
  options: Record<string, unknown>,
): Promise<{ violations: AxeViolation[]; incomplete: AxeViolation[] }> {
  await page.evaluate(AXE_SOURCE)
  return page.evaluate(async (opts) => {
    type Raw = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }
    const axe = (
      window as unknown as {
        axe: {
          run: (ctx: Document, opts: unknown) => Promise<{ violations: Raw[]; incomplete: Raw[] }>
        }
      }
    ).axe
    const result = await axe.run(document, opts)
    const plain = (r: Raw) => ({
      id: r.id,
      impact: r.impact,
      help: r.help,
      nodes: r.nodes.map((n) => n.target.join(' ')),
    })
    return { violations: result.violations.map(plain), incomplete: result.incomplete.map(plain) }
  }, options)
}

/**
 * The text whose colour contrast axe cannot verify ("needs review": text on a
 * gradient or an image), as selectors: it should be none.
 */
export async function contrastNeedsReview(page: Page): Promise<string[]> {
  const { incomplete } = await runAxe(page, {
    runOnly: ['color-contrast'],
    resultTypes: ['incomplete'],
  })
  return incomplete.flatMap((r) => r.nodes)
}

/** Screenshots of the page at phone and desktop widths (and back to desktop). */
export async function screenshotWidths(page: Page, name: string): Promise<void> {
  for (const [label, size] of [
    ['phone', PHONE],
    ['tablet', TABLET],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(size)
    await page.waitForTimeout(150)
    await screenshot(page, `${name}-${label}`)
  }
}

/**
 * The REST API as one user, for setting up data quickly. Mutations carry the
 * Origin header the server's CSRF check wants.
 */
export class ApiAs {
  private constructor(
    private readonly context: BrowserContext,
    readonly user: { id: string; username: string; isAdmin: boolean },
  ) {}

  static async signIn(browser: Browser, username: string): Promise<ApiAs> {
    const context = await browser.newContext({ baseURL: baseUrl() })
    const user = await signIn(context, username)
    return new ApiAs(context, user)
  }

  get request(): APIRequestContext {
    return this.context.request
  }

  async call<T = unknown>(method: string, path: string, data?: unknown): Promise<T> {
    const res = await this.request.fetch(`${baseUrl()}${path}`, {
      method,
      headers: { origin: baseUrl(), accept: 'application/json' },
      ...(data === undefined ? {} : { data }),
    })
    const text = await res.text()
    if (!res.ok())
      throw new Error(`${method} ${path} as ${this.user.username}: ${res.status()} ${text}`)
    return (text ? JSON.parse(text) : undefined) as T
  }

  /** Creates a topic (proposed); answers it. */
  createTopic(input: Partial<TopicBody> = {}): Promise<{ id: string; subject: string }> {
    return this.call('POST', '/api/topics', {
      subject: input.subject ?? uniqueName('Topic'),
      description: input.description ?? '<p>A topic made by a browser test.</p>',
      maxMentees: input.maxMentees ?? 2,
      seniorityRequired: input.seniorityRequired ?? ['junior', 'mid'],
      location: input.location ?? 'online',
      interests: input.interests ?? ['Testing'],
    })
  }

  review(topicId: string, status: 'approved' | 'rejected', rejectionReason?: string) {
    return this.call('POST', `/api/admin/topics/${topicId}/review`, {
      status,
      ...(rejectionReason ? { rejectionReason } : {}),
    })
  }

  apply(topicId: string): Promise<{ id: string }> {
    return this.call('POST', `/api/topics/${topicId}/apply`)
  }

  decide(applicationId: string, status: 'accepted' | 'rejected', rejectionReason?: string) {
    return this.call('PATCH', `/api/applications/${applicationId}`, {
      status,
      ...(rejectionReason ? { rejectionReason } : {}),
    })
  }

  dispose(): Promise<void> {
    return this.context.close()
  }
}

export type TopicBody = {
  subject: string
  description: string
  maxMentees: number
  seniorityRequired: ('junior' | 'mid' | 'senior')[]
  location: 'online' | 'in-person' | 'both'
  interests: string[]
}

export { screenshot }
