import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SIGN_IN_ERRORS } from '../shared/sign-in.ts'
import { launchBrowser, openPage, screenshot } from './browser.ts'
import { expectToast } from './ui.ts'

// Signing in as a person does it, on a server without Entra credentials: the
// sign-in screen's button leads to the development sign-in page.

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

describe('sign-in in the browser', () => {
  it('goes from the Welcome screen through the development page back to the page wanted', async () => {
    const { page, pageErrors, cspViolations, close } = await openPage(browser, {
      width: 375,
      height: 812,
    })
    await page.goto('/topics')
    await page.getByRole('heading', { name: 'Welcome' }).waitFor()
    await screenshot(page, 'sign-in-welcome-phone')

    await page.getByRole('link', { name: 'Sign in with Microsoft' }).click()
    await page.getByRole('heading', { name: 'Development sign-in' }).waitFor()
    expect(await page.getByText('For development only.').isVisible()).toBe(true)
    expect(await cspViolations()).toEqual([])
    await screenshot(page, 'sign-in-development-page-phone')

    await page.getByRole('button', { name: /@admin/ }).click()
    await page.getByRole('navigation', { name: 'Main' }).waitFor()
    // Told once (spec section 9), and the mark has left the address bar.
    await expectToast(page, 'Development Login Success')
    await page.waitForURL((url) => url.pathname === '/topics' && url.search === '')
    await page.getByRole('button', { name: 'admin', exact: true }).waitFor()
    expect(pageErrors).toEqual([])
    expect(await cspViolations()).toEqual([])
    await close()
  })

  it('creates a new user from the username field and shows a refused name in place', async () => {
    const { page, close } = await openPage(browser, { width: 1280, height: 800 })
    await page.goto('/api/auth/dev-login')
    const field = page.getByLabel('Username')
    // The browser's own pattern check would stop the form: let the server answer.
    await field.evaluate((input) => input.removeAttribute('pattern'))
    await field.fill('not valid!')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.getByRole('alert').waitFor()
    expect(await page.getByRole('alert').innerText()).toBe(
      'Login Failed\n\nA username may contain only letters, digits and . _ - @.',
    )
    expect(await field.inputValue()).toBe('not valid!')

    const name = `newcomer-${Date.now()}`
    await field.fill(name)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.waitForURL((url) => url.pathname === '/')
    await page
      .getByRole('button', { name: new RegExp(name) })
      .first()
      .waitFor()
    await close()
  })

  it('shows why a sign-in failed, once', async () => {
    const { page, close } = await openPage(browser, { width: 1280, height: 800 })
    await page.goto('/?sign_in_error=cancelled')
    const alert = page.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toBe(SIGN_IN_ERRORS.cancelled)
    // The reason leaves the address bar, so a reload does not show it again.
    expect(new URL(page.url()).search).toBe('')
    await page.reload()
    await page.getByRole('heading', { name: 'Welcome' }).waitFor()
    expect(await alert.isVisible()).toBe(false)
    await close()
  })

  it('signs out with Logout in the user menu', async () => {
    const { page, close } = await openPage(browser, { width: 1280, height: 800 })
    await page.goto('/api/auth/dev-login')
    await page.getByRole('button', { name: /@admin/ }).click()
    await page.getByRole('navigation', { name: 'Main' }).waitFor()
    await page.getByRole('button', { name: /admin/ }).last().click()
    await page.getByRole('menuitem', { name: 'Logout' }).click()
    await page.getByRole('heading', { name: 'Welcome' }).waitFor()
    // The user's data left this device with the session.
    const databases = await page.evaluate(async () =>
      (await indexedDB.databases()).map((d) => d.name),
    )
    expect(databases.filter((name) => name?.startsWith('pairwise-'))).toEqual([])
    expect(await page.context().cookies()).not.toContainEqual(
      expect.objectContaining({ name: 'pairwise_session' }),
    )
    await close()
  })
})
