import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiAs, DESKTOP, STORED_TOPIC_IDS, uniqueName, waitForShell, waitForSynced } from './app.ts'
import { launchBrowser, openPage, signIn } from './browser.ts'

// A new device shows the cards of its first pull page as soon as the page is
// answered, before it is written (pwa/src/sync/engine/early-page.ts, issue
// 14). Here another tab holds the sync lock, so the first flush cannot write
// anything: the cards are there all the same, and IndexedDB has none of them
// until the lock is let go and the sync ends. An Apply clicked meanwhile waits
// for the page to be stored, then goes through. The page is asked for once, as
// soon as the session check has named the person (first-page-early.ts).

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
  const admin = await ApiAs.signIn(browser, 'admin')
  const topic = await admin.createTopic({ subject: uniqueName('Early page') })
  await admin.review(topic.id, 'approved')
  await admin.dispose()
}, 60_000)

afterAll(async () => {
  await browser?.close()
})

describe("a new device's first page", () => {
  it('is on screen before it is written; a change made from it waits until it is stored', async () => {
    const opened = await openPage(browser, DESKTOP)
    const { context, page } = opened
    try {
      const me = await signIn(context, uniqueName('early-reader'))
      // Another tab of this person's holds the sync lock (as one that is syncing would).
      const holder = await context.newPage()
      await holder.goto('/favicon.svg')
      await holder.evaluate(
        (name) =>
          new Promise<void>((held) => {
            void navigator.locks.request(name, () => {
              held()
              return new Promise<void>((letGo) => {
                ;(window as unknown as { letGo: () => void }).letGo = letGo
              })
            })
          }),
        `pairwise-sync-${me.id}`,
      )

      // The first page (a pull with no cursor) and who is asking, as each is requested.
      const asked: string[] = []
      page.on('request', (request) => {
        const url = new URL(request.url())
        if (url.pathname === '/api/sync/pull' && !url.searchParams.has('cursor')) asked.push('page')
        if (url.pathname === '/api/user') asked.push('user')
        if (url.pathname === '/api/auth/session') asked.push('session')
        // The topic list's code, which the screen waits for (and asked for as the session
        // check answered, after the first page).
        if (/^\/assets\/topic-list-[\w-]+\.js$/.test(url.pathname)) asked.push('screen')
      })
      await page.goto('/topics')
      await waitForShell(page)
      await page.getByTestId('topic-card').first().waitFor({ timeout: 30_000 })
      expect(await page.getByTestId('topic-card').count()).toBeGreaterThan(0)
      await expect
        .poll(() => page.getByRole('status').allTextContents())
        .toContain('Newest topics first...')
      expect((await page.evaluate<string[]>(STORED_TOPIC_IDS)).length).toBe(0)

      // Applied from a card drawn from the page: the change waits until the page is stored,
      // then is checked against it like any other (not refused as "Topic not found").
      const apply = page.getByRole('button', { name: /^Apply to / }).first()
      await apply.click()
      await holder.evaluate(() => (window as unknown as { letGo: () => void }).letGo())
      await page.getByText('Application submitted successfully').waitFor({ timeout: 30_000 })
      await waitForSynced(page)
      const mine = (await (await context.request.get('/api/my-applications')).json()) as unknown[]
      expect(mine).toHaveLength(1)
      expect((await page.evaluate<string[]>(STORED_TOPIC_IDS)).length).toBeGreaterThan(0)
      await expect
        .poll(() => page.getByRole('status').allTextContents())
        .not.toContain('Newest topics first...')
      expect(await page.getByTestId('topic-card').count()).toBeGreaterThan(0)
      // Asked for once, by boot.js as its session check named a person new to this device,
      // before anything else (boot-answers.ts, first-page-early.ts): the app took that
      // check's answer and the sync took that page, rather than asking again.
      expect(asked.filter((what) => what !== 'screen')).toEqual(['session', 'page', 'user'])
      expect(asked.slice(0, 4)).toEqual(['session', 'page', 'user', 'screen'])
      expect(opened.pageErrors.map(String)).toEqual([])
      expect(opened.consoleErrors).toEqual([])
      expect(await opened.cspViolations()).toEqual([])
    } finally {
      await opened.close()
    }
  })
})
