import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiAs, openApp, uniqueName, waitForShell } from './app.ts'
import { cspViolations, launchBrowser, openPage, signIn } from './browser.ts'
import { waitForController } from './service-worker.ts'

/**
 * A return visit paints the screen's last look at once (decision 0050): the
 * copy boot.js puts up before any module has loaded, taken down once the
 * app's own screen has its data; only for the same person, address and width;
 * it takes no input; a sign-out forgets it.
 */
let browser: Browser
let topic: { id: string; subject: string }

beforeAll(async () => {
  browser = await launchBrowser()
  const admin = await ApiAs.signIn(browser, 'admin')
  topic = await admin.createTopic({ subject: uniqueName('Snapshot topic') })
  await admin.review(topic.id, 'approved')
  await admin.dispose()
})

afterAll(async () => {
  await browser?.close()
})

/** The addresses this page's localStorage keeps a screen copy of. */
function keptCopies(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Object.keys(localStorage)
      .filter((key) => key.startsWith('pairwise.snapshot:'))
      .map((key) => key.slice('pairwise.snapshot:'.length))
      .sort(),
  )
}

/**
 * What a new page of the context shows before the app's modules run: records,
 * at DOMContentLoaded (the classic scripts have run, no module yet), the
 * copy's text and the app root's, and the moment the copy goes.
 */
const RECORD_START = `(() => {
  const seen = (window.__start = { cover: null, root: null, removedAt: null })
  document.addEventListener('DOMContentLoaded', () => {
    const cover = document.getElementById('snapshot')
    seen.cover = cover ? cover.innerText : null
    seen.root = document.getElementById('root')?.innerText ?? null
    if (!cover) return
    new MutationObserver((_, observer) => {
      if (!cover.isConnected) { seen.removedAt = performance.now(); observer.disconnect() }
    }).observe(document.body, { childList: true })
  })
})()`

type Start = { cover: string | null; root: string | null; removedAt: number | null }

describe('the screen as last seen, on a return visit', () => {
  it('shows the last look of /topics before the app has loaded, offline too, then the app takes over', async () => {
    const app = await openApp(browser, uniqueName('snapshot-mentee'), { path: '/topics' })
    const { page, context } = app
    await waitForController(page)
    await page.getByText(topic.subject).first().waitFor({ timeout: 20_000 })
    await expect.poll(() => keptCopies(page), { timeout: 15_000 }).toContain('/topics')
    // Searches are not kept: typed words change the address, and their copies would push
    // this one out. The list's own address keeps its copy.
    for (const words of ['mentoring', 'design review', 'kubernetes']) {
      await page.getByLabel('Search topics').fill(words)
      await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(words)
      await page.waitForTimeout(2_500)
    }
    await page.getByLabel('Search topics').fill('')
    await expect.poll(() => new URL(page.url()).search).toBe('')
    expect((await keptCopies(page)).filter((path) => path.includes('?'))).toEqual([])
    expect(await keptCopies(page)).toContain('/topics')

    await context.addInitScript(RECORD_START)
    await context.setOffline(true)
    const next = await context.newPage()
    await next.goto('/topics')
    await waitForShell(next)
    const start = (await next.evaluate('window.__start')) as Start
    // Before any module ran: the copy shows the topics, the app's root is still empty.
    expect(start.cover).toContain(topic.subject)
    expect(start.cover).toContain('Mentorship Topics')
    expect(start.root).toBe('')
    expect(start.removedAt).not.toBeNull()
    // The app's own list, from IndexedDB, with nothing left over it.
    await next.locator('#root').getByText(topic.subject).first().waitFor()
    expect(await next.locator('#snapshot').count()).toBe(0)
    await context.setOffline(false)

    await next.close()

    // Another width: the list's rows are placed in pixels for one width, so no copy.
    const narrow = await context.newPage()
    await narrow.setViewportSize({ width: 700, height: 800 })
    await narrow.goto('/topics')
    await waitForShell(narrow)
    expect(((await narrow.evaluate('window.__start')) as Start).cover).toBeNull()
    await narrow.close()
    await app.expectClean()
    await app.close()
  })

  it('takes no input, keeps the rows where they were, and breaks no CSP rule', async () => {
    // No service worker, so that the route below can hold the app's modules back for good
    // and the copy stays up to be looked at.
    const opened = await openPage(browser, {
      width: 375,
      height: 812,
      context: { serviceWorkers: 'block' },
    })
    const { page, context } = opened
    await signIn(context, uniqueName('snapshot-still'))
    await page.goto('/topics')
    await waitForShell(page)
    await page.getByText(topic.subject).first().waitFor({ timeout: 20_000 })
    await expect.poll(() => keptCopies(page), { timeout: 15_000 }).toContain('/topics')

    const still = await context.newPage()
    await still.route(/\/assets\/index-[^/]*\.js$/, (route) => route.abort())
    await still.goto('/topics')
    const cover = still.locator('#snapshot')
    await cover.waitFor()
    expect(await cover.getAttribute('aria-hidden')).toBe('true')
    expect(await cover.locator('[inert]').count()).toBe(1)
    expect(await still.title()).toBe(await page.title())
    // Rows of the virtual list keep their place: their styles came back through the CSSOM.
    const row = cover.locator('[role="list"] > div').first()
    expect(await row.evaluate((el) => (el as HTMLElement).style.transform)).toMatch(/^translateY\(/)
    expect(await cover.locator('[data-snapshot-style]').count()).toBe(0)
    // Of the moment, not of the screen: the toasts' region (always in the app) is left out.
    expect(await page.locator('#root section[aria-label^="Notifications"]').count()).toBe(1)
    expect(await cover.locator('section[aria-label^="Notifications"]').count()).toBe(0)
    expect(await cover.locator('[id]').count()).toBe(0)
    // A tap on a card's link does nothing: the copy is a picture.
    await cover.getByText(topic.subject).first().click({ force: true })
    await still.waitForTimeout(300)
    expect(new URL(still.url()).pathname).toBe('/topics')
    expect(await cspViolations(still)).toEqual([])
    expect(opened.pageErrors).toEqual([])
    await opened.close()
  })

  it('forgets every copy at sign-out', async () => {
    const app = await openApp(browser, uniqueName('snapshot-leaver'), { path: '/topics' })
    const { page } = app
    await page.getByText(topic.subject).first().waitFor({ timeout: 20_000 })
    await expect.poll(() => keptCopies(page), { timeout: 15_000 }).toContain('/topics')
    await page.getByRole('button', { name: /snapshot-leaver/ }).click()
    await page.getByRole('menuitem', { name: 'Logout' }).click()
    await page.getByText('Sign in with Microsoft').waitFor({ timeout: 20_000 })
    expect(await keptCopies(page)).toEqual([])
    expect(await page.evaluate(() => localStorage.getItem('pairwise.snapshots'))).toBeNull()
    await app.close()
  })
})
