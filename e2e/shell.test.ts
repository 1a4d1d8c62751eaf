import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ApiAs,
  DESKTOP,
  openApp,
  PHONE,
  screenshotWidths,
  seriousAxeViolations,
  uniqueName,
  waitForShell,
  waitForSynced,
} from './app.ts'
import { launchBrowser, openPage, screenshot, signIn } from './browser.ts'

// The app frame of spec section 2: who sees what, the route table, the bar,
// the user menu, the bell, toasts and the sync status.

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

/** Every route of the table with the heading its screen shows (admin's view). */
const ROUTES: [path: string, heading: RegExp][] = [
  ['/', /^Welcome to Pairwise Mentorship$/],
  ['/topics', /^Mentorship Topics$/],
  ['/create', /Create/],
  ['/dashboard', /Dashboard/],
  ['/profile/admin', /.+/],
  ['/mentor-guide', /Mentor Guide/],
  ['/mentee-guide', /Mentee Guide/],
  ['/about-program', /^About the Mentorship Program$/],
  ['/settings/notifications', /^Email Notification Preferences$/],
  ['/admin/topics', /^Topic Management$/],
  ['/admin/users', /^User Management$/],
]

describe('the app shell', () => {
  it('shows only the sign-in screen when signed out, at any route', async () => {
    const { page, close } = await openPage(browser, PHONE)
    await page.goto('/dashboard')
    await page.getByRole('heading', { name: 'Welcome' }).waitFor()
    expect(
      await page.getByRole('link', { name: 'Sign in with Microsoft' }).getAttribute('href'),
    ).toBe('/api/auth/microsoft?returnTo=%2Fdashboard')
    expect(await page.getByRole('navigation').count()).toBe(0)
    expect(await seriousAxeViolations(page)).toEqual([])
    await close()
  })

  it('renders every route of the table with its heading, case-insensitively, without accessibility violations', async () => {
    const app = await openApp(browser, 'admin')
    for (const [path, heading] of ROUTES) {
      await app.page.goto(path)
      await waitForShell(app.page)
      const h1 = app.page.getByRole('heading', { level: 1, name: heading })
      await h1.waitFor({ timeout: 20_000 })
      expect(await app.page.getByRole('heading', { level: 1 }).count(), `one h1 on ${path}`).toBe(1)
      expect(await seriousAxeViolations(app.page), `axe on ${path}`).toEqual([])
    }
    await app.page.goto('/TOPICS')
    await app.page.getByRole('heading', { level: 1, name: 'Mentorship Topics' }).waitFor()
    await app.expectClean()
    await app.close()
  })

  it('answers an unknown path with the 404 card', async () => {
    const app = await openApp(browser, uniqueName('lost'), { path: '/no/such/page' })
    await app.page.getByRole('heading', { name: '404 Page Not Found' }).waitFor()
    expect(await app.page.getByText("The page you're looking for doesn't exist.").isVisible()).toBe(
      true,
    )
    await screenshotWidths(app.page, 'shell-404')
    await app.close()
  })

  it('shows the error card when a screen cannot be loaded, and the screen before it after Back', async () => {
    // No service worker: the screen's code comes from the network, where the test refuses it.
    const opened = await openPage(browser, { ...DESKTOP, context: { serviceWorkers: 'block' } })
    const { page } = opened
    await signIn(opened.context, uniqueName('unlucky'))
    await page.route(/\/assets\/about-[^/]+\.js$/, (route) => route.abort('internetdisconnected'))
    await page.goto('/')
    await waitForShell(page)
    await page.getByRole('heading', { level: 1, name: 'Welcome to Pairwise Mentorship' }).waitFor()
    await page.getByRole('link', { name: 'Learn More' }).click()
    await page.getByRole('heading', { name: 'This screen could not be shown' }).waitFor()
    expect(
      await page
        .getByText('This screen could not be loaded. Check your connection, then reload.')
        .isVisible(),
    ).toBe(true)
    expect(await page.getByRole('button', { name: 'Reload' }).isVisible()).toBe(true)
    await page.goBack()
    await page.getByRole('heading', { level: 1, name: 'Welcome to Pairwise Mentorship' }).waitFor()
    expect(
      await page.getByRole('heading', { name: 'This screen could not be shown' }).count(),
    ).toBe(0)
    expect(opened.pageErrors.map(String)).toEqual([])
    await opened.close()
  })

  it('registers the admin routes only for administrators', async () => {
    const app = await openApp(browser, uniqueName('member'), { path: '/admin/users' })
    await app.page.getByRole('heading', { name: '404 Page Not Found' }).waitFor()
    const nav = app.page.getByRole('navigation', { name: 'Main' })
    expect(await nav.getByRole('link', { name: 'Manage Topics' }).count()).toBe(0)
    expect(await nav.getByRole('link', { name: 'Manage Users' }).count()).toBe(0)
    await app.page.goto('/admin/topics')
    await app.page.getByRole('heading', { name: '404 Page Not Found' }).waitFor()
    await app.close()
  })

  it('is usable with the keyboard alone: skip link, bar links and the user menu', async () => {
    const app = await openApp(browser, 'admin', { path: '/about-program' })
    const { page } = app
    await page.getByRole('heading', { level: 1 }).waitFor()
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Pairwise')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Topics')
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { level: 1, name: 'Mentorship Topics' }).waitFor()

    const menuButton = page.getByRole('button', { name: 'admin', exact: true })
    await menuButton.focus()
    await page.keyboard.press('Enter')
    const menu = page.getByRole('menu')
    await menu.waitFor()
    const items = await menu.getByRole('menuitem').allTextContents()
    expect(items.map((t) => t.trim())).toEqual(
      expect.arrayContaining(['Profile', 'Notification Settings', 'Logout']),
    )
    await screenshot(page, 'shell-user-menu-desktop')
    // Opened from the keyboard, the menu focuses its first item.
    await page.keyboard.press('Enter')
    await page.waitForURL('**/profile/admin')
    // Escape on the next screen leaves no menu open.
    await page.keyboard.press('Escape')
    await page.getByRole('menu').waitFor({ state: 'detached' })
    await app.expectClean()
    await app.close()
  })

  it("loads the bar's menus when first reached for; a click or a key before they come still opens them", async () => {
    // No service worker: the held-back chunk must come from the network, where the test holds it.
    const opened = await openPage(browser, { ...DESKTOP, context: { serviceWorkers: 'block' } })
    const { page, context } = opened
    await signIn(context, 'admin')
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const asked: string[] = []
    await page.route(/\/assets\/shell-widgets-[^/]+\.js$/, async (route) => {
      asked.push(route.request().url())
      await held
      await route.continue()
    })
    await page.goto('/about-program')
    await waitForShell(page)
    await page.getByRole('heading', { level: 1 }).waitFor()
    await page.waitForTimeout(500)
    // At rest the menus' code is not asked for.
    expect(asked).toEqual([])

    // A key on the user menu's button before its code has come: the menu opens with its first
    // item focused, as it does when the code is there.
    const menuButton = page.getByRole('button', { name: 'admin', exact: true })
    expect(await menuButton.getAttribute('aria-haspopup')).toBe('menu')
    expect(await menuButton.getAttribute('aria-expanded')).toBe('false')
    await menuButton.focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => asked.length).toBe(1)
    expect(await page.getByRole('menu').count()).toBe(0)
    release()
    await page.getByRole('menu').waitFor()
    // Opened from the keyboard, its first item is the active one: Enter chooses it.
    await page.keyboard.press('Enter')
    await page.waitForURL('**/profile/admin')
    expect(opened.pageErrors.map(String)).toEqual([])
    await opened.close()

    // A click on the bell before its code has come opens its panel once it has.
    const second = await openPage(browser, { ...DESKTOP, context: { serviceWorkers: 'block' } })
    await signIn(second.context, 'admin')
    let releaseBell: () => void = () => {}
    const heldBell = new Promise<void>((resolve) => {
      releaseBell = resolve
    })
    await second.page.route(/\/assets\/shell-widgets-[^/]+\.js$/, async (route) => {
      await heldBell
      await route.continue()
    })
    await second.page.goto('/about-program')
    await waitForShell(second.page)
    await second.page.getByRole('button', { name: /^Notifications/ }).click()
    expect(
      await second.page
        .getByRole('button', { name: /^Notifications/ })
        .getAttribute('aria-expanded'),
    ).toBe('false')
    await second.page.waitForTimeout(300)
    releaseBell()
    const bell = second.page.getByRole('button', { name: /^Notifications/ })
    await expect.poll(() => bell.getAttribute('aria-expanded')).toBe('true')
    expect(second.pageErrors.map(String)).toEqual([])
    await second.close()
  })

  it('folds the links into a menu on a phone', async () => {
    const app = await openApp(browser, 'admin', PHONE)
    const { page } = app
    expect(await page.getByRole('link', { name: 'Dashboard' }).isVisible()).toBe(false)
    await page.getByRole('button', { name: 'Open menu' }).click()
    await page.getByRole('link', { name: 'Dashboard' }).waitFor()
    await screenshot(page, 'shell-menu-phone')
    await page.getByRole('link', { name: 'Dashboard' }).click()
    await page.waitForURL('**/dashboard')
    await page.getByRole('link', { name: 'Dashboard' }).waitFor({ state: 'hidden' })
    await app.close()
  })

  it('keeps new notifications new while the bell is open, marks them read as they are seen or all at once, in every tab', async () => {
    const mentor = uniqueName('belle')
    const api = await ApiAs.signIn(browser, mentor)
    const admin = await ApiAs.signIn(browser, 'admin')
    // Eight notifications: more than the panel shows without scrolling.
    const topics = []
    for (let i = 0; i < 8; i++) topics.push(await api.createTopic())
    for (const [i, topic] of topics.entries()) {
      await (i % 2 === 0
        ? admin.review(topic.id, 'approved')
        : admin.review(topic.id, 'rejected', 'Please narrow the scope'))
    }

    const app = await openApp(browser, mentor)
    const { page } = app
    // A second tab of the same person.
    const other = await app.context.newPage()
    await other.goto('/')
    await other.getByRole('button', { name: 'Notifications, 8 unread' }).waitFor()

    const bell = page.getByRole('button', { name: 'Notifications, 8 unread' })
    await bell.waitFor()
    await bell.click()
    const list = page.getByRole('region', { name: 'Notification list' })
    await list
      .getByText(topics[7]?.subject ?? '', { exact: false })
      .first()
      .waitFor()
    // The ones in view are read once seen; the ones below the fold are not, yet.
    const bellNow = page.getByRole('button', { name: /^Notifications/ }).first()
    await expect
      .poll(async () => bellNow.textContent(), { timeout: 10_000 })
      .toMatch(/, [1-7] unread/)
    // Still shown as new while the panel is open, read or not.
    expect(await list.locator('li[data-new="true"]').count()).toBe(8)
    await screenshot(page, 'shell-bell-open-desktop')
    await page.setViewportSize({ width: 360, height: 780 })
    await screenshot(page, 'shell-bell-open-phone')
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.getByRole('button', { name: 'Mark all as read' }).click()
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor()
    expect(await list.locator('li[data-new="true"]').count()).toBe(8)
    // The other tab counts the same.
    await other.getByRole('button', { name: 'Notifications', exact: true }).waitFor()
    await page.keyboard.press('Escape')
    await list.waitFor({ state: 'detached' })
    // Opened again: nothing is new any more.
    await page.getByRole('button', { name: 'Notifications', exact: true }).click()
    await list
      .getByText(topics[0]?.subject ?? '', { exact: false })
      .first()
      .waitFor()
    expect(await list.locator('li[data-new="true"]').count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Mark all as read' }).count()).toBe(0)
    await page.keyboard.press('Escape')
    // Read on the server too: a new device shows them read.
    const again = await openApp(browser, mentor)
    await again.page.getByRole('button', { name: 'Notifications', exact: true }).waitFor()
    await again.close()
    await app.expectClean()
    await app.close()
    await api.dispose()
    await admin.dispose()
  })

  it('shows "No notifications" for someone who has none', async () => {
    const app = await openApp(browser, uniqueName('quiet'), PHONE)
    await app.page.getByRole('button', { name: 'Notifications', exact: true }).click()
    await app.page.getByText('No notifications').waitFor()
    await app.close()
  })

  it('says when it is offline and that changes wait on this device', async () => {
    const app = await openApp(browser, uniqueName('commuter'), { ...DESKTOP, path: '/topics' })
    const { page, context } = app
    await context.setOffline(true)
    await page.getByText("You're offline.").waitFor()
    await page.getByRole('button', { name: /^Sync status: Offline/ }).waitFor()
    await screenshot(page, 'shell-offline-desktop')
    await context.setOffline(false)
    await page.getByText("You're offline.").waitFor({ state: 'detached', timeout: 20_000 })
    await app.close()
  })

  it('paints a return visit from this device before the session check answers', async () => {
    const app = await openApp(browser, uniqueName('returning'), { ...DESKTOP, path: '/topics' })
    const { page } = app
    await page.getByTestId('topic-card').first().waitFor()
    await waitForSynced(page)
    // The server is slow to say who is signed in: the screen does not wait for it.
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    await page.route('**/api/auth/session', async (route) => {
      await held
      await route.continue().catch(() => {})
    })
    await page.reload()
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 5_000 })
    await page.getByTestId('topic-card').first().waitFor({ timeout: 5_000 })
    release()
    await app.close()
  })

  it('looks finished in dark mode', async () => {
    const app = await openApp(browser, 'admin', { colorScheme: 'dark' })
    await app.page.getByRole('heading', { level: 1 }).waitFor()
    await screenshotWidths(app.page, 'shell-home-dark')
    expect(await seriousAxeViolations(app.page)).toEqual([])
    await app.close()
  })
})
