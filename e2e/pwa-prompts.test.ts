import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest'
import { openApp, screenshotWidths, seriousAxeViolations, uniqueName, waitForShell } from './app.ts'
import { baseUrl, launchBrowser, screenshot } from './browser.ts'
import { waitForController } from './service-worker.ts'

/**
 * What the installed app asks of its user (issue 7): "A new version is
 * available" when a new build is served, held back while a change is unsent;
 * and "Push notifications on this device" in the notification settings, with
 * the browser's block explained.
 */
let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
})

describe('update prompt and push setting', () => {
  it('offers a new version with Reload, held back while a change is unsent', async () => {
    const app = await openApp(browser, uniqueName('update'), { path: '/settings/notifications' })
    const { page, context } = app
    await waitForController(page)
    // A new build is served: the same worker, byte-different (as a rebuild's precache list is).
    const swPath = join(inject('staticDir'), 'sw.js')
    const original = await readFile(swPath, 'utf8')
    await writeFile(swPath, `${original}\n// build B\n`)
    onTestFinished(() => writeFile(swPath, original))
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update())
    const prompt = page.getByRole('region', { name: 'App update' })
    await prompt.getByText('A new version is available').waitFor({ timeout: 15_000 })
    const reload = prompt.getByRole('button', { name: 'Reload' })
    expect(await reload.isEnabled()).toBe(true)
    expect(await seriousAxeViolations(page)).toEqual([])
    await screenshotWidths(page, 'pwa-update-prompt')

    // A change waits to be sent: no reload until it is saved.
    await context.setOffline(true)
    await page.getByRole('switch', { name: 'New Applications' }).click()
    await prompt.getByText('Reload when your changes are saved').waitFor()
    expect(await reload.isDisabled()).toBe(true)
    await page.emulateMedia({ colorScheme: 'dark' })
    await screenshot(page, 'pwa-update-prompt-unsent-dark')
    await page.emulateMedia({ colorScheme: 'light' })
    await context.setOffline(false)
    await expect.poll(() => reload.isEnabled(), { timeout: 20_000 }).toBe(true)

    await Promise.all([page.waitForEvent('load'), reload.click()])
    await waitForShell(page)
    expect(await prompt.count()).toBe(0)
    expect(
      await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration()
        return {
          waiting: !!registration?.waiting,
          controlled: !!navigator.serviceWorker.controller,
        }
      }),
    ).toEqual({ waiting: false, controlled: true })
    await app.expectClean()
    await app.close()
  })

  it('shows "Push notifications on this device" off, and explains when the browser blocks it', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const app = await openApp(browser, uniqueName('push'), {
        path: '/settings/notifications',
        colorScheme,
      })
      const { page, context } = app
      await waitForController(page)
      const toggle = page.getByRole('switch', { name: 'Push notifications on this device' })
      await expect.poll(() => toggle.isEnabled()).toBe(true)
      expect(await toggle.getAttribute('aria-checked')).toBe('false')
      await page.getByRole('heading', { name: 'This device' }).scrollIntoViewIfNeeded()
      await screenshotWidths(page, `pwa-push-setting-off-${colorScheme}`)

      const cdp = await context.newCDPSession(page)
      const { targetInfo } = await cdp.send('Target.getTargetInfo')
      await cdp.send('Browser.setPermission', {
        permission: { name: 'notifications' },
        setting: 'denied',
        origin: baseUrl(),
        ...(targetInfo.browserContextId ? { browserContextId: targetInfo.browserContextId } : {}),
      })
      await page.reload()
      await waitForShell(page)
      await page.getByText('Notifications are blocked for Pairwise in this browser').waitFor()
      expect(await toggle.isDisabled()).toBe(true)
      expect(await seriousAxeViolations(page)).toEqual([])
      await screenshotWidths(page, `pwa-push-setting-blocked-${colorScheme}`)
      await app.expectClean()
      await app.close()
    }
  })
})
