import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openApp, screenshot, screenshotWidths, uniqueName, waitForSynced } from './app.ts'
import { launchBrowser, openPage, signIn } from './browser.ts'
import { expectToast } from './ui.ts'

// Notification settings (spec section 2 and 8): loading state, the four
// switches, saved at once with the spec's toasts, and the keyboard.

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

const SWITCHES = [
  ['New Applications', 'Notify when someone applies to your topics'],
  ['Topic Status Updates', 'When your topics are approved or rejected'],
  ['Application Status Updates', 'When your applications are accepted or rejected'],
  ['New Topics for Review', 'When new topics need review'],
] as const

const checked = async (page: Page, name: string) =>
  (await page.getByRole('switch', { name }).getAttribute('aria-checked')) === 'true'

describe('notification settings', () => {
  it('shows "Loading preferences..." until loaded, then the four switches', async () => {
    // A fresh device whose first pull is held back: the screen has nothing to show yet.
    const opened = await openPage(browser, { width: 1280, height: 800 })
    const { page } = opened
    await signIn(opened.context, uniqueName('settings'))
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    await page.route('**/api/sync/pull**', async (route) => {
      await held
      await route.continue()
    })
    await page.goto('/settings/notifications')
    await page.getByRole('heading', { name: 'Email Notification Preferences', level: 1 }).waitFor()
    await page.getByText('Loading preferences...', { exact: true }).waitFor()
    await screenshot(page, 'settings-loading-desktop')
    release()

    for (const [name, description] of SWITCHES) {
      const control = page.getByRole('switch', { name })
      await control.waitFor()
      expect(await control.getAttribute('aria-describedby')).toBeTruthy()
      await page.getByText(description, { exact: true }).waitFor()
    }
    expect(await page.getByText('Loading preferences...').count()).toBe(0)
    await page.getByText('Admin only', { exact: true }).waitFor()
    await page.getByRole('heading', { name: 'This device', level: 2 }).waitFor()
    await screenshotWidths(page, 'settings')
    await opened.close()
  })

  it('a toggle shows "Preferences Updated" at once and survives a reload', async () => {
    const app = await openApp(browser, uniqueName('toggler'), { path: '/settings/notifications' })
    const { page } = app
    await page.getByRole('switch', { name: 'Topic Status Updates' }).waitFor()
    await expect.poll(() => checked(page, 'Topic Status Updates')).toBe(true)

    await page.getByRole('switch', { name: 'Topic Status Updates' }).click()
    // Optimistic: the switch flips before the server answers.
    await expect.poll(() => checked(page, 'Topic Status Updates')).toBe(false)
    await expectToast(page, 'Preferences Updated')
    await expectToast(page, 'Your notification preferences have been saved.')
    await waitForSynced(page)

    await page.reload()
    await page.getByRole('switch', { name: 'Topic Status Updates' }).waitFor()
    await expect.poll(() => checked(page, 'Topic Status Updates')).toBe(false)
    await expect.poll(() => checked(page, 'New Applications')).toBe(true)
    await app.expectClean()
    await app.close()
  })

  it('switches toggle with Space from the keyboard', async () => {
    const app = await openApp(browser, uniqueName('keys'), {
      path: '/settings/notifications',
      colorScheme: 'dark',
    })
    const { page } = app
    const review = page.getByRole('switch', { name: 'New Topics for Review' })
    await review.waitFor()
    await review.focus()
    await page.keyboard.press('Space')
    await expectToast(page, 'Preferences Updated')
    await expect.poll(() => checked(page, 'New Topics for Review')).toBe(false)
    await page.keyboard.press('Shift+Tab')
    expect(
      await page.evaluate(() => document.activeElement?.getAttribute('aria-checked') !== null),
    ).toBe(true)
    await page.keyboard.press('Space')
    await expect.poll(() => checked(page, 'Application Status Updates')).toBe(false)
    await screenshot(page, 'settings-dark-desktop')
    await waitForSynced(page)
    await page.reload()
    await review.waitFor()
    await expect.poll(() => checked(page, 'New Topics for Review')).toBe(false)
    await expect.poll(() => checked(page, 'Application Status Updates')).toBe(false)
    await app.close()
  })
})
