import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type AppPage,
  contrastNeedsReview,
  openApp,
  PHONE,
  screenshot,
  screenshotWidths,
  seriousAxeViolations,
  uniqueName,
} from './app.ts'
import { launchBrowser, openPage } from './browser.ts'

// The content pages (spec section 1) and the landing page's links (section 2),
// plus axe on every screen of this change.

let browser: Browser
let app: AppPage
const me = uniqueName('reader')

beforeAll(async () => {
  browser = await launchBrowser()
  app = await openApp(browser, me)
})
afterAll(async () => {
  await app?.close()
  await browser?.close()
})

const PAGES = [
  { path: '/', heading: 'Welcome to Pairwise Mentorship', name: 'landing' },
  { path: '/about-program', heading: 'About the Mentorship Program', name: 'about' },
  { path: '/mentor-guide', heading: 'Mentor Guide', name: 'mentor-guide' },
  { path: '/mentee-guide', heading: 'Mentee Guide', name: 'mentee-guide' },
] as const

describe('static pages', () => {
  for (const { path, heading, name } of PAGES) {
    it(`${path} shows its heading, has no serious axe violation, and looks finished`, async () => {
      await app.page.goto(path)
      const h1 = app.page.getByRole('heading', { level: 1 })
      await h1.waitFor()
      expect(await h1.count()).toBe(1)
      expect((await h1.textContent())?.replace(/\s+/g, ' ').trim()).toBe(heading)
      expect(await seriousAxeViolations(app.page)).toEqual([])
      // Headings go down one level at a time (Lighthouse's and axe's heading-order).
      const levels = await app.page.evaluate(() =>
        [...document.querySelectorAll('main :is(h1, h2, h3, h4, h5, h6)')].map((h) =>
          Number(h.tagName.slice(1)),
        ),
      )
      expect(levels.filter((level, i) => i > 0 && level > (levels[i - 1] ?? 0) + 1)).toEqual([])
      await screenshotWidths(app.page, `static-${name}`)
      await app.expectClean()
    })
  }

  it('signed out, the welcome screen logs no error: being signed out is not a failed request', async () => {
    const visitor = await openPage(browser, { width: 1280, height: 800 })
    await visitor.page.goto('/')
    await visitor.page.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor()
    await visitor.page.waitForLoadState('networkidle')
    expect(visitor.consoleErrors).toEqual([])
    expect(await contrastNeedsReview(visitor.page)).toEqual([])
    await visitor.close()
  })

  it("the landing hero's text has a contrast tools can verify, light and dark", async () => {
    const { page } = app
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      await page.goto('/')
      await page.getByRole('heading', { level: 1 }).waitFor()
      expect(await contrastNeedsReview(page)).toEqual([])
    }
    await page.emulateMedia({ colorScheme: null })
  })

  it('the landing page has the spec text and its links go where the spec says', async () => {
    const { page } = app
    await page.goto('/')
    await page
      .getByText(
        'Connect, learn, and grow with experienced professionals in our mentorship program designed to accelerate your career development.',
        { exact: true },
      )
      .waitFor()
    const main = page.getByRole('main')
    const links: [string, string][] = [
      ['Browse Topics', '/topics'],
      ['Learn More', '/about-program'],
      ['Mentee Guide', '/mentee-guide'],
      ['Mentor Guide', '/mentor-guide'],
      ['Program Details', '/about-program'],
    ]
    for (const [name, href] of links) {
      expect(await main.getByRole('link', { name, exact: true }).getAttribute('href')).toBe(href)
    }
    for (const title of ['For Mentees', 'For Mentors', 'About the Program']) {
      await main.getByRole('heading', { name: title, exact: true }).waitFor()
    }
    await main.getByRole('link', { name: 'Program Details', exact: true }).click()
    await page.waitForURL('**/about-program')
    await page.getByRole('heading', { name: 'About the Mentorship Program' }).waitFor()
    await page.goBack()
    await main.getByRole('link', { name: 'Browse Topics', exact: true }).click()
    await page.waitForURL('**/topics')
  })

  it('the about page lists both benefit lists, the steps and the duration', async () => {
    const { page } = app
    await page.goto('/about-program')
    const main = page.getByRole('main')
    for (const item of [
      'Access to experienced professionals',
      'Personalized guidance and feedback',
      'Skill development opportunities',
      'Career growth support',
      'Leadership skill development',
      'Knowledge sharing opportunities',
      'Professional networking',
      'Community impact',
    ]) {
      await main.getByText(item, { exact: true }).waitFor()
    }
    expect(await main.getByRole('list').nth(2).getByRole('listitem').count()).toBe(8)
    expect(await main.textContent()).toContain('3-6 months')
    expect(await main.textContent()).toMatch(/extended by mutual\s+agreement/)
  })

  it('the guides link into the app: create a topic, dashboard, profile, topics', async () => {
    const { page } = app
    await page.goto('/mentor-guide')
    const main = page.getByRole('main')
    await main.getByRole('heading', { name: 'Getting started' }).waitFor()
    expect(await main.getByRole('link', { name: 'your profile' }).getAttribute('href')).toBe(
      `/profile/${me}`,
    )
    expect(
      await main.getByRole('link', { name: 'Create Topic' }).first().getAttribute('href'),
    ).toBe('/create')
    await page.goto('/mentee-guide')
    await main.getByRole('heading', { name: 'Getting started' }).waitFor()
    expect(await main.getByRole('link', { name: 'Topics', exact: true }).getAttribute('href')).toBe(
      '/topics',
    )
    await main.getByRole('link', { name: 'Dashboard', exact: true }).click()
    await page.waitForURL('**/dashboard')
  })

  it('the landing and about pages in the dark colour scheme, on a phone', async () => {
    const dark = await openApp(browser, me, { colorScheme: 'dark', ...PHONE })
    await dark.page.getByRole('heading', { name: 'Welcome to Pairwise Mentorship' }).waitFor()
    expect(await seriousAxeViolations(dark.page)).toEqual([])
    await screenshot(dark.page, 'static-landing-dark-phone')
    await dark.page.setViewportSize({ width: 1280, height: 800 })
    await dark.page.goto('/about-program')
    await dark.page.getByRole('heading', { name: 'About the Mentorship Program' }).waitFor()
    expect(await seriousAxeViolations(dark.page)).toEqual([])
    await screenshot(dark.page, 'static-about-dark-desktop')
    await dark.page.goto('/mentor-guide')
    await dark.page.getByRole('heading', { name: 'Mentor Guide', level: 1 }).waitFor()
    await screenshot(dark.page, 'static-mentor-guide-dark-desktop')
    await dark.close()
  })

  it('axe finds no serious violation on the profile and notification settings screens', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page =
        colorScheme === 'light' ? app.page : (await openApp(browser, me, { colorScheme })).page
      await page.goto(`/profile/${me}`)
      await page.getByRole('button', { name: 'Save Changes' }).waitFor()
      expect(await seriousAxeViolations(page)).toEqual([])
      await page.goto('/settings/notifications')
      await page.getByRole('switch', { name: 'New Applications' }).waitFor()
      expect(await seriousAxeViolations(page)).toEqual([])
      if (colorScheme === 'dark') await page.context().close()
    }
  })
})
