import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ApiAs,
  openApp,
  PHONE,
  screenshot,
  screenshotWidths,
  seriousAxeViolations,
  uniqueName,
  waitForSynced,
} from './app.ts'
import { launchBrowser } from './browser.ts'
import { choose, expectToast } from './ui.ts'

// The profile screen (spec section 2 and 6): who may edit, the admin notice,
// "User not found", and the interests picker (section 5).

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

const interests = (page: Page) => page.getByRole('combobox', { name: 'Interests' })
const chips = (page: Page) => page.getByRole('button', { name: /^Remove / })

async function chipNames(page: Page): Promise<string[]> {
  const labels = await chips(page).evaluateAll((buttons) =>
    buttons.map((b) => b.getAttribute('aria-label') ?? ''),
  )
  return labels.map((label) => label.replace(/^Remove /, ''))
}

describe('profile', () => {
  it('the owner edits seniority, bio and interests, and the change survives a reload', async () => {
    const owner = uniqueName('owner')
    const app = await openApp(browser, owner, { path: `/profile/${owner}` })
    const { page } = app
    await page.getByRole('heading', { level: 1, name: owner }).waitFor()
    await page.getByText(`@${owner}`).waitFor()

    await choose(page, 'Seniority', 'Mid-Level')
    await page.getByLabel('Bio').fill('I build payment systems and like teaching.')
    await interests(page).fill('Payments')
    await interests(page).press('Enter')
    await interests(page).fill('Syst')
    await page.getByRole('option', { name: 'System Design', exact: true }).click()
    expect(await chipNames(page)).toEqual(['Payments', 'System Design'])
    await screenshotWidths(page, 'profile-owner-editing')

    await page.getByRole('button', { name: 'Save Changes' }).click()
    await expectToast(page, 'Profile updated successfully')
    await waitForSynced(page)

    await page.reload()
    await page.getByRole('button', { name: 'Save Changes' }).waitFor()
    expect(await page.getByRole('button', { name: /^Seniority/ }).textContent()).toContain(
      'Mid-Level',
    )
    expect(await page.getByLabel('Bio').inputValue()).toBe(
      'I build payment systems and like teaching.',
    )
    expect(await chipNames(page)).toEqual(['Payments', 'System Design'])
    await app.expectClean()
    await app.close()
  })

  it('the interests picker adds a typed value once, never a duplicate, and removes by keyboard', async () => {
    const owner = uniqueName('picker')
    const app = await openApp(browser, owner, { path: `/profile/${owner}`, ...PHONE })
    const { page } = app
    const input = interests(page)
    await input.waitFor()

    await input.fill('  Pottery  ')
    await input.press('Enter')
    await input.fill('')
    await input.press('Enter') // empty: nothing added
    await input.fill('POTTERY')
    await page.getByText('“POTTERY” is already selected.').waitFor()
    await input.press('Enter')
    expect(await chipNames(page)).toEqual(['Pottery'])
    expect(await input.inputValue()).toBe('')

    // An existing option is offered until chosen, and is not offered (or added) again.
    await input.fill('Rust')
    await page.getByRole('option', { name: 'Rust', exact: true }).click()
    await input.fill('rust')
    expect(await page.getByRole('option', { name: 'Rust', exact: true }).count()).toBe(0)
    await input.press('Enter')
    await input.fill('Chess')
    await input.press('Enter')
    expect(await chipNames(page)).toEqual(['Pottery', 'Rust', 'Chess'])
    await screenshot(page, 'profile-interests-picker-phone')

    // Backspace in the empty input removes the last chip.
    await input.press('Backspace')
    expect(await chipNames(page)).toEqual(['Pottery', 'Rust'])
    // A chip's remove button, reached with the keyboard.
    await page.getByRole('button', { name: 'Remove Pottery' }).focus()
    await page.keyboard.press('Enter')
    expect(await chipNames(page)).toEqual(['Rust'])
    await app.expectClean()
    await app.close()
  })

  it("another user's profile reads as a profile, with the topics they mentor, and no form", async () => {
    const owner = uniqueName('shown')
    const ownerApp = await openApp(browser, owner, { path: `/profile/${owner}` })
    await ownerApp.page.getByRole('button', { name: 'Save Changes' }).waitFor()
    await ownerApp.close()
    const ownerApi = await ApiAs.signIn(browser, owner)
    await ownerApi.call('PATCH', `/api/users/${owner}`, {
      seniority: 'senior',
      bio: 'Platform engineer.\nI like pairing on gnarly bugs.',
      interests: ['Kubernetes', 'Go'],
    })
    const admin = await ApiAs.signIn(browser, 'admin')
    const approved = await ownerApi.createTopic({ subject: uniqueName('Shown approved') })
    await admin.review(approved.id, 'approved')
    const proposed = await ownerApi.createTopic({ subject: uniqueName('Shown proposal') })
    await Promise.all([ownerApi.dispose(), admin.dispose()])

    const visitor = await openApp(browser, uniqueName('visitor'), { path: `/profile/${owner}` })
    const { page } = visitor
    await page.getByRole('heading', { level: 1, name: owner }).waitFor()
    await page.getByText('I like pairing on gnarly bugs.').waitFor()
    expect(await page.getByRole('definition').first().textContent()).toBe('Senior')
    expect(
      await page.getByRole('list', { name: 'Interests' }).getByRole('listitem').allTextContents(),
    ).toEqual(['Kubernetes', 'Go'])
    // Their public topics link to the topic; a proposal only its mentor and admins see is not listed.
    const topics = page.getByRole('list', { name: 'Topics they mentor' })
    await topics.getByRole('link', { name: approved.subject }).waitFor()
    expect(await topics.getByText(proposed.subject).count()).toBe(0)
    // No form at all: nothing disabled to puzzle over, no Save Changes.
    expect(await page.getByRole('form').count()).toBe(0)
    expect(await page.getByRole('textbox').count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Save Changes' }).count()).toBe(0)
    expect(await page.getByText('You are editing this profile as an administrator').count()).toBe(0)
    expect(await seriousAxeViolations(page)).toEqual([])
    await screenshotWidths(page, 'profile-visitor')
    await page.emulateMedia({ colorScheme: 'dark' })
    await screenshot(page, 'profile-visitor-dark-desktop')
    await visitor.close()
  })

  it("an admin sees the notice and can save someone else's profile", async () => {
    const owner = uniqueName('managed')
    const ownerApp = await openApp(browser, owner, { path: `/profile/${owner}` })
    await ownerApp.page.getByRole('button', { name: 'Save Changes' }).waitFor()

    const admin = await openApp(browser, 'admin', {
      path: `/profile/${owner}`,
      colorScheme: 'dark',
    })
    const { page } = admin
    await page.getByText('You are editing this profile as an administrator.').waitFor()
    await page.getByLabel('Bio').fill('Updated by an administrator.')
    await screenshot(page, 'profile-admin-notice-dark')
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await expectToast(page, 'Profile updated successfully')
    await admin.close()

    // The owner's device receives the change on its next pull.
    await ownerApp.page.reload()
    await ownerApp.page.getByRole('button', { name: 'Save Changes' }).waitFor()
    await expect
      .poll(() => ownerApp.page.getByLabel('Bio').inputValue(), { timeout: 15_000 })
      .toBe('Updated by an administrator.')
    await ownerApp.close()
  })

  it('an unknown username shows "User not found"', async () => {
    const app = await openApp(browser, uniqueName('seeker'), {
      path: `/profile/${uniqueName('nobody')}`,
    })
    await app.page.getByRole('heading', { name: 'User not found' }).waitFor()
    await screenshot(app.page, 'profile-not-found-desktop')
    await app.expectClean()
    await app.close()
  })
})
