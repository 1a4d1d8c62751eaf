import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiAs, DESKTOP, STORED_TOPIC_IDS, uniqueName, waitForShell, waitForSynced } from './app.ts'
import { launchBrowser, openPage, signIn } from './browser.ts'

// A first sync of many pages in a real browser: the pages after the first are
// fetched and written by the page writer's worker (pwa/src/sync/engine/
// page-writer.ts, issue 14), and the device ends up with every topic, the
// list showing them, with no error anywhere.

let browser: Browser
const subjects: string[] = []

beforeAll(async () => {
  browser = await launchBrowser()
  const admin = await ApiAs.signIn(browser, 'admin')
  const tag = uniqueName('Paged')
  for (let i = 0; i < 3; i++) {
    const topic = await admin.createTopic({ subject: `${tag} ${i}` })
    await admin.review(topic.id, 'approved')
    subjects.push(topic.subject)
  }
  await admin.dispose()
}, 60_000)

afterAll(async () => {
  await browser?.close()
})

describe('a first sync of many pages', () => {
  it('writes the pages after the first in a worker, and the device has every topic', async () => {
    const opened = await openPage(browser, DESKTOP)
    const { context, page } = opened
    try {
      const workers: string[] = []
      page.on('worker', (worker) => workers.push(new URL(worker.url()).pathname))
      // Pages of 25 rows: every pull of this shared database has many.
      let routed = 0
      await context.route('**/api/sync/pull*', (route) => {
        const url = new URL(route.request().url())
        url.searchParams.set('limit', '25')
        routed += 1
        return route.continue({ url: url.href })
      })
      await signIn(context, uniqueName('paged-reader'))
      // The topics there are before the sync starts (other tests add more as it runs).
      const listed = (await (await context.request.get('/api/topics')).json()) as { id: string }[]
      await page.goto('/topics')
      await waitForShell(page)
      await waitForSynced(page)

      expect(workers.filter((path) => /\/pull-worker-[\w-]+\.js$/.test(path))).toHaveLength(1)
      expect(routed).toBeGreaterThan(1)
      const stored = new Set(await page.evaluate<string[]>(STORED_TOPIC_IDS))
      expect(listed.filter((topic) => !stored.has(topic.id))).toEqual([])
      // The list shows what the worker wrote: the search finds this file's newest topic.
      await page.getByRole('searchbox', { name: 'Search topics' }).fill(subjects[2] ?? '')
      await expect
        .poll(() => page.getByTestId('topic-card').getByRole('heading').allTextContents())
        .toContain(subjects[2])
      expect(opened.pageErrors.map(String)).toEqual([])
      expect(opened.consoleErrors).toEqual([])
      expect(await opened.cspViolations()).toEqual([])
    } finally {
      await opened.close()
    }
  })
})
