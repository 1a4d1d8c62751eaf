import { readFile } from 'node:fs/promises'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openApp, screenshotWidths, seriousAxeViolations, uniqueName } from './app.ts'
import { launchBrowser } from './browser.ts'
import { choose, waitText } from './ui.ts'

// The programme insights screen: administrators only, loaded on demand, charts
// with tables and CSV files, exports, and the last answer readable offline.
// The demo data is small, so many groups show as "fewer than 5".

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

/** The text of a file the page downloads when `click` runs. */
async function downloaded(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()])
  const path = await download.path()
  return { name: download.suggestedFilename(), text: await readFile(path, 'utf8') }
}

describe('programme insights', () => {
  it('do not exist for someone who is not an administrator, whose pages never load its code', async () => {
    const app = await openApp(browser, uniqueName('plain'), { path: '/topics' })
    const scripts: string[] = []
    app.page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url())
    })
    await app.page.goto('/admin/insights')
    await app.page.getByRole('heading', { name: '404 Page Not Found' }).waitFor()
    const nav = app.page.getByRole('navigation', { name: 'Main' })
    expect(await nav.getByRole('link', { name: 'Insights', exact: true }).count()).toBe(0)
    expect(scripts.filter((s) => s.includes('insights'))).toEqual([])
    await app.close()
  })

  it('show where the programme stands, with tables, CSV files and exports', async () => {
    const app = await openApp(browser, 'admin', { path: '/topics' })
    const { page } = app
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Insights', exact: true })
      .click()
    await page.getByRole('heading', { name: 'Programme Insights', level: 1 }).waitFor()
    await page.getByRole('heading', { name: 'Funnel and matching' }).waitFor()
    await choose(page, 'Period', 'Last 12 months')
    for (const section of ['How long things take', 'Capacity now', 'Outcomes', 'Month by month']) {
      await page.getByRole('heading', { name: section, exact: true }).waitFor()
    }
    await page
      .getByRole('img', { name: /^Topics proposed, approved, started and concluded/ })
      .waitFor()
    await waitText(page, 'fewer than 5')

    const card = page.getByRole('figure', {
      name: 'Star ratings on topics concluded in the period',
    })
    await card.getByRole('button', { name: 'Table' }).click()
    await card.getByRole('columnheader', { name: 'Mentees' }).waitFor()
    const csv = await downloaded(page, () =>
      card.getByRole('button', { name: /^Download CSV/ }).click(),
    )
    expect(csv.name).toBe('pairwise-ratings.csv')
    expect(csv.text.startsWith('\uFEFF"Stars","Mentors","Mentees"\r\n')).toBe(true)
    expect(csv.text.split('\r\n')).toHaveLength(7)

    expect(await seriousAxeViolations(page)).toEqual([])
    await screenshotWidths(page, 'insights')

    const exported = await downloaded(page, () =>
      page.getByRole('link', { name: 'Topics CSV' }).click(),
    )
    expect(exported.name).toMatch(/^pairwise-topics-\d{4}-\d{2}-\d{2}\.csv$/)
    expect(exported.text.split('\r\n')[0]).toBe(
      '\uFEFF"id","subject","status","mentor_username","max_mentees","current_mentees","seniority_required","location","interests","created_at","submitted_at","reviewed_at","started_at","concluded_at","rejection_reason","mentor_feedback"',
    )

    await choose(page, 'Period', 'Custom range')
    await page.getByLabel('From month').fill('2026-05')
    await page.getByLabel('To month').fill('2026-02')
    await page.getByRole('button', { name: 'Show', exact: true }).click()
    await waitText(page, 'from must not be after to')
    await app.expectClean()
    await app.close()
  }, 120_000)

  it('read offline from the last answer, saying as of when', async () => {
    const app = await openApp(browser, 'admin', { path: '/topics', colorScheme: 'dark' })
    const { page } = app
    await page.getByRole('heading', { name: 'Mentorship Topics' }).waitFor()
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Insights', exact: true })
      .click()
    await page.getByRole('heading', { name: 'Funnel and matching' }).waitFor()
    await app.context.setOffline(true)
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Topics', exact: true })
      .click()
    await page.getByRole('heading', { name: 'Mentorship Topics' }).waitFor()
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Insights', exact: true })
      .click()
    await page.getByText(/^Offline: showing the figures as of /).waitFor()
    await page.getByRole('heading', { name: 'Funnel and matching' }).waitFor()
    await screenshotWidths(page, 'insights-offline-dark')
    await app.context.setOffline(false)
    await app.close()
  }, 120_000)
})
