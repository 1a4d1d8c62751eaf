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
import { card, choose, dialogClosed, expectToast, openedDialog, waitText } from './ui.ts'

// The dashboard as mentors and mentees use it: deciding applications online
// and offline, and each side seeing the outcome.

let browser: Browser
let admin: ApiAs

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await ApiAs.signIn(browser, 'admin')
})
afterAll(async () => {
  await admin?.dispose()
  await browser?.close()
})

/** A mentor with an approved topic and two mentees who applied (the first with a seniority). */
async function topicWithApplicants(label: string, location: 'online' | 'both' = 'both') {
  const mentor = await ApiAs.signIn(browser, uniqueName(`${label}-mentor`))
  const topic = await mentor.createTopic({ subject: uniqueName(`${label} topic`), location })
  await admin.review(topic.id, 'approved')
  const first = await ApiAs.signIn(browser, uniqueName(`${label}-junior`))
  await first.call('PATCH', `/api/users/${first.user.username}`, { seniority: 'junior' })
  const second = await ApiAs.signIn(browser, uniqueName(`${label}-newbie`))
  await first.apply(topic.id)
  await second.apply(topic.id)
  return { mentor, topic, first, second }
}

const row = (page: Page, username: string) =>
  page.getByRole('listitem', { name: `Application from ${username}` })

describe('the dashboard', () => {
  it('lets a mentor accept and reject applications, and mentees see Active and Rejected', async () => {
    const { mentor, topic, first, second } = await topicWithApplicants('dash')
    const spare = await mentor.createTopic({ subject: uniqueName('dash spare topic') })
    const app = await openApp(browser, mentor.user.username, { path: '/dashboard' })
    const { page } = app

    await page.getByRole('heading', { name: 'Topics I Mentor' }).waitFor()
    expect(await page.getByRole('tab', { name: 'My Topics' }).getAttribute('aria-selected')).toBe(
      'true',
    )
    const topicCard = card(page, topic.subject)
    await row(page, first.user.username).waitFor()
    expect(await topicCard.getByText('Online & In-Person').isVisible()).toBe(true)
    await waitText(topicCard, 'Mentees: 0/2')
    await waitText(row(page, first.user.username), 'Seniority: Junior')
    await waitText(row(page, second.user.username), 'Seniority: Not specified')
    await waitText(card(page, spare.subject), 'No applications yet')
    await waitText(card(page, spare.subject), 'Pending')
    await screenshotWidths(page, 'dashboard-my-topics')

    // Reject the second applicant: the reason is required and sent trimmed.
    await row(page, second.user.username).getByRole('button', { name: 'Reject' }).click()
    const dialog = await openedDialog(page, 'Reject Application')
    await waitText(
      dialog,
      'Please provide a reason for rejecting this application. This will be visible to the mentee.',
    )
    const confirm = dialog.getByRole('button', { name: 'Confirm Rejection' })
    expect(await confirm.isDisabled()).toBe(true)
    const reason = dialog.getByPlaceholder('Enter rejection reason...')
    await reason.fill('   ')
    expect(await confirm.isDisabled()).toBe(true)
    await reason.fill('  The group is already full of beginners.  ')
    expect(await confirm.isEnabled()).toBe(true)
    expect(await seriousAxeViolations(page)).toEqual([])
    await screenshotWidths(page, 'dashboard-reject-dialog')
    await confirm.click()
    await expectToast(page, 'Application rejected successfully')
    await dialogClosed(dialog)
    await waitText(
      row(page, second.user.username),
      'Rejection reason: The group is already full of beginners.',
    )
    await waitText(row(page, second.user.username), 'Rejected')

    // The dialog opens empty again.
    await row(page, first.user.username).getByRole('button', { name: 'Reject' }).click()
    await openedDialog(page, 'Reject Application')
    expect(await dialog.getByPlaceholder('Enter rejection reason...').inputValue()).toBe('')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialogClosed(dialog)

    await row(page, first.user.username).getByRole('button', { name: 'Accept' }).click()
    await expectToast(page, 'Application accepted successfully')
    await waitText(row(page, first.user.username), 'Accepted')
    await waitText(topicCard, 'Mentees: 1/2')

    // Filters: Pending is the proposed state.
    await choose(page, 'Status', 'Pending')
    await card(page, spare.subject).waitFor()
    expect(await topicCard.count()).toBe(0)
    await choose(page, 'Status', 'Approved')
    await topicCard.waitFor()
    expect(await card(page, spare.subject).count()).toBe(0)
    await choose(page, 'Status', 'Rejected')
    await waitText(page, 'No rejected topics found')
    await choose(page, 'Status', 'Concluded')
    await waitText(page, 'No concluded topics found')

    await page.getByRole('tab', { name: 'My Enrollments' }).click()
    await waitText(page, "You haven't applied to any topics yet")
    expect(await seriousAxeViolations(page)).toEqual([])
    await app.expectClean()
    await app.close()

    // The mentees' side.
    const accepted = await openApp(browser, first.user.username, { path: '/dashboard' })
    await waitText(accepted.page, "You haven't created any topics yet")
    for (const [option, text] of [
      ['Pending', 'No pending topics found'],
      ['Approved', 'No approved topics found'],
      ['Rejected', 'No rejected topics found'],
      ['Concluded', 'No concluded topics found'],
    ] as const) {
      await choose(accepted.page, 'Status', option)
      await waitText(accepted.page, text)
    }
    await accepted.page.getByRole('tab', { name: 'My Enrollments' }).click()
    const enrollment = card(accepted.page, topic.subject)
    await waitText(enrollment, 'Active')
    await waitText(enrollment, `Mentor: ${mentor.user.username}`)
    await choose(accepted.page, 'Status', 'Pending')
    await waitText(accepted.page, 'No pending enrollments found')
    await choose(accepted.page, 'Status', 'Rejected')
    await waitText(accepted.page, 'No rejected enrollments found')
    await choose(accepted.page, 'Status', 'Active')
    await enrollment.waitFor()
    expect(await seriousAxeViolations(accepted.page)).toEqual([])
    await screenshotWidths(accepted.page, 'dashboard-my-enrollments')
    await accepted.close()

    const rejected = await openApp(browser, second.user.username, {
      path: '/dashboard?tab=enrollments',
      colorScheme: 'dark',
    })
    const refused = card(rejected.page, topic.subject)
    await waitText(refused, 'Rejected')
    await waitText(refused, 'The group is already full of beginners.')
    await choose(rejected.page, 'Status', 'Active')
    await waitText(rejected.page, 'No active enrollments found')
    await choose(rejected.page, 'Status', 'All Enrollments')
    await refused.waitFor()
    await screenshotWidths(rejected.page, 'dashboard-my-enrollments-dark')
    expect(await seriousAxeViolations(rejected.page)).toEqual([])
    await rejected.close()
    await Promise.all([mentor.dispose(), first.dispose(), second.dispose()])
  }, 120_000)

  it('decides offline, and the mentees see the outcome once the mentor is back online', async () => {
    const { mentor, topic, first, second } = await topicWithApplicants('offline', 'online')
    const watcher = await openApp(browser, first.user.username, {
      path: '/dashboard?tab=enrollments',
    })
    await waitText(card(watcher.page, topic.subject), 'Pending')

    const app = await openApp(browser, mentor.user.username, { path: '/dashboard' })
    const { page } = app
    await row(page, second.user.username).waitFor()
    expect(await card(page, topic.subject).getByText('online', { exact: true }).isVisible()).toBe(
      true,
    )
    // A first start also saves the browser's time zone (issue 18): let that go first.
    await waitForSynced(page)
    await app.context.setOffline(true)
    await page.getByRole('button', { name: /^Sync status: Offline/ }).waitFor()

    await row(page, first.user.username).getByRole('button', { name: 'Accept' }).click()
    await expectToast(page, 'Saved on this device')
    await row(page, second.user.username).getByRole('button', { name: 'Reject' }).click()
    const dialog = await openedDialog(page, 'Reject Application')
    await dialog.getByPlaceholder('Enter rejection reason...').fill('Decided on the train.')
    await dialog.getByRole('button', { name: 'Confirm Rejection' }).click()
    await dialogClosed(dialog)

    // Both show at once, marked as not yet saved (an acceptance may still be refused).
    await waitText(row(page, first.user.username), 'Accepted')
    await waitText(row(page, first.user.username), 'Awaiting confirmation')
    await waitText(row(page, second.user.username), 'Rejection reason: Decided on the train.')
    await waitText(row(page, second.user.username), 'Waiting to sync')
    await page.getByRole('button', { name: 'Sync status: Offline, 2 waiting to sync' }).waitFor()
    await screenshotWidths(page, 'dashboard-offline-decisions')
    // The mentee has heard nothing yet.
    expect(await card(watcher.page, topic.subject).getByText('Pending').isVisible()).toBe(true)

    await app.context.setOffline(false)
    await waitForSynced(page)
    await row(page, first.user.username).getByText('Awaiting confirmation').waitFor({
      state: 'detached',
    })
    expect(await row(page, second.user.username).getByText('Waiting to sync').count()).toBe(0)

    // The mentee's open dashboard changes by itself (the server's poke), no reload.
    await waitText(card(watcher.page, topic.subject), 'Active', 10_000)
    const other = await openApp(browser, second.user.username, {
      path: '/dashboard?tab=enrollments',
    })
    await waitText(card(other.page, topic.subject), 'Decided on the train.')
    await app.expectClean()
    await Promise.all([app.close(), watcher.close(), other.close()])
    await Promise.all([mentor.dispose(), first.dispose(), second.dispose()])
  }, 120_000)

  it('never lets the toast of a decision cover the next Accept and Reject (issue 16 item 11)', async () => {
    const mentor = await ApiAs.signIn(browser, uniqueName('toast-mentor'))
    const topic = await mentor.createTopic({ subject: uniqueName('toast topic'), maxMentees: 2 })
    await admin.review(topic.id, 'approved')
    const mentees: ApiAs[] = []
    for (let i = 0; i < 4; i++) {
      const mentee = await ApiAs.signIn(browser, uniqueName(`toast-mentee${i}`))
      await mentee.apply(topic.id)
      mentees.push(mentee)
    }
    const app = await openApp(browser, mentor.user.username, { path: '/dashboard', ...PHONE })
    const { page } = app
    // Newest first: mentee 1's application is listed just above mentee 0's, the last.
    const [next, decided] = mentees.map((m) => row(page, m.user.username))
    await next?.getByRole('button', { name: 'Accept' }).waitFor()

    // The next application's buttons sit at the foot of the screen, where a toast shows.
    const box = await next?.getByRole('button', { name: 'Accept' }).boundingBox()
    if (!box) throw new Error('no Accept button')
    await page.evaluate((by) => window.scrollBy(0, by), box.y + box.height - (PHONE.height - 30))
    await decided?.getByRole('button', { name: 'Accept' }).click()
    await expectToast(page, 'Application accepted successfully')

    const toastBox = await page
      .getByRole('region', { name: /^Notifications/ })
      .locator('li')
      .boundingBox()
    if (!toastBox) throw new Error('no toast')
    const covered = await page.evaluate((t) => {
      const hits: string[] = []
      for (const b of document.querySelectorAll('main button')) {
        const r = b.getBoundingClientRect()
        if (r.width === 0 || r.bottom <= 0 || r.top >= window.innerHeight) continue
        const overlaps =
          r.left < t.x + t.width && r.right > t.x && r.top < t.y + t.height && r.bottom > t.y
        if (overlaps) hits.push(b.textContent ?? '')
      }
      return hits
    }, toastBox)
    await page.screenshot({ path: 'e2e/screenshots/dashboard-toast-moved-phone.png' })
    expect(covered).toEqual([])
    // It moved up; the buttons it would have hidden are still there to press.
    expect(
      await page.getByRole('region', { name: /^Notifications/ }).getAttribute('data-edge'),
    ).toBe('moved')
    await next?.getByRole('button', { name: 'Accept' }).click({ trial: true, timeout: 2_000 })
    await app.expectClean()
    await app.close()
    await Promise.all([mentor.dispose(), ...mentees.map((m) => m.dispose())])
  }, 120_000)

  it('tells a refused offline decision once, on the application (issue 16 item 15)', async () => {
    const mentor = await ApiAs.signIn(browser, uniqueName('once-mentor'))
    const topic = await mentor.createTopic({ subject: uniqueName('once topic'), maxMentees: 1 })
    await admin.review(topic.id, 'approved')
    const taken = await ApiAs.signIn(browser, uniqueName('once-first'))
    const late = await ApiAs.signIn(browser, uniqueName('once-late'))
    const takenApplication = await taken.apply(topic.id)
    await late.apply(topic.id)
    const app = await openApp(browser, mentor.user.username, { path: '/dashboard' })
    const { page } = app
    const lateRow = row(page, late.user.username)
    await lateRow.getByRole('button', { name: 'Accept' }).waitFor()

    // On the train the mentor accepts one; meanwhile, from the laptop, they accepted the other.
    await app.context.setOffline(true)
    await lateRow.getByRole('button', { name: 'Accept' }).click()
    await mentor.decide(takenApplication.id, 'accepted')
    await app.context.setOffline(false)

    const topicCard = card(page, topic.subject)
    await topicCard
      .getByText(/^Not saved:/)
      .first()
      .waitFor({ timeout: 20_000 })
    await page.waitForTimeout(500)
    expect(await topicCard.getByText(/^Not saved:/).count()).toBe(1)
    expect(await lateRow.getByText(/^Not saved:/).count()).toBe(1)
    await screenshot(page, 'dashboard-refused-once-desktop')
    await app.close()
    await Promise.all([mentor.dispose(), taken.dispose(), late.dispose()])
  }, 120_000)
})
