import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ApiAs,
  openApp,
  screenshotWidths,
  seriousAxeViolations,
  uniqueName,
  waitForSynced,
} from './app.ts'
import { launchBrowser } from './browser.ts'
import { card, choose, dialogClosed, expectToast, openedDialog, waitText } from './ui.ts'

// The administrator's screens: topic reviews (online and offline) and the
// Admin switch; and that nobody else has them.

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

describe('admin screens', () => {
  it('do not exist for a user who is not an administrator', async () => {
    const app = await openApp(browser, uniqueName('plain'), { path: '/admin/topics' })
    await app.page.getByRole('heading', { name: '404 Page Not Found' }).waitFor()
    await waitText(app.page, "The page you're looking for doesn't exist.")
    const nav = app.page.getByRole('navigation', { name: 'Main' })
    expect(await nav.getByRole('link', { name: 'Manage Topics' }).count()).toBe(0)
    expect(await nav.getByRole('link', { name: 'Manage Users' }).count()).toBe(0)
    await app.page.goto('/admin/users')
    await app.page.getByRole('heading', { name: '404 Page Not Found' }).waitFor()
    await app.close()
  })

  it('search, filter and review topics: approve, and reject with a reason', async () => {
    const mentor = await ApiAs.signIn(browser, uniqueName('proposer'))
    const tag = uniqueName('Review')
    const approve = await mentor.createTopic({
      subject: `${tag} approve me`,
      description: '<p>Weekly pairing on <strong>real tickets</strong>, then a retro.</p>',
      seniorityRequired: ['junior', 'mid'],
      location: 'both',
    })
    const reject = await mentor.createTopic({ subject: `${tag} reject me`, maxMentees: 1 })

    const app = await openApp(browser, 'admin', { path: '/admin/topics' })
    const { page } = app
    await page.getByRole('heading', { name: 'Topic Management', level: 1 }).waitFor()
    await page.getByLabel('Search topics').fill(tag.toUpperCase())
    await card(page, approve.subject).waitFor()
    await card(page, reject.subject).waitFor()
    expect(await page.getByRole('article').count()).toBe(2)
    const first = card(page, approve.subject)
    await waitText(first, 'Seniority: Junior, Mid-Level')
    await waitText(first, 'Online & In-Person')
    await waitText(first, '0/2')
    await waitText(first, 'Proposed')

    await choose(page, 'Status', 'Approved')
    await waitText(page, 'No topics match your search')
    await choose(page, 'Status', 'Proposed')
    await first.waitFor()
    await page.getByLabel('Search topics').fill(`${tag} approve`)
    expect(await page.getByRole('article').count()).toBe(1)
    expect(await seriousAxeViolations(page)).toEqual([])
    await screenshotWidths(page, 'admin-topics')

    await first.getByRole('button', { name: 'Review Topic' }).click()
    let dialog = await openedDialog(page, 'Review Topic')
    // What is being decided on: the mentor, seniority, location, capacity and description.
    const proposed = dialog.getByRole('region', { name: 'The proposed topic' })
    await waitText(proposed, mentor.user.username)
    await waitText(proposed, 'Junior, Mid-Level')
    await waitText(proposed, 'Online & In-Person')
    await waitText(proposed, '2 mentees')
    await proposed.getByText('real tickets', { exact: true }).waitFor()
    const reason = dialog.getByLabel('Rejection reason')
    expect(await reason.count()).toBe(0)
    await dialog.getByRole('radio', { name: /^Reject/ }).click()
    await reason.waitFor()
    await screenshotWidths(page, 'admin-review-dialog-reject')
    expect(await seriousAxeViolations(page)).toEqual([])
    await dialog.getByRole('radio', { name: /^Approve/ }).click()
    await reason.waitFor({ state: 'detached' })
    await dialog.getByRole('button', { name: 'Approve Topic' }).click()
    await expectToast(page, 'Topic approved successfully')
    await dialogClosed(dialog)
    await choose(page, 'Status', 'All statuses')
    await waitText(first, 'Approved')
    expect(await first.getByRole('button', { name: 'Review Topic' }).count()).toBe(0)

    await page.getByLabel('Search topics').fill(`${tag} reject`)
    const second = card(page, reject.subject)
    await second.getByRole('button', { name: 'Review Topic' }).click()
    dialog = await openedDialog(page, 'Review Topic')
    await dialog.getByRole('radio', { name: /^Reject/ }).click()
    await dialog.getByLabel('Rejection reason').fill('Too close to an existing topic.')
    await dialog.getByRole('button', { name: 'Reject Topic' }).click()
    await expectToast(page, 'Topic rejected successfully')
    await dialogClosed(dialog)
    await waitText(second, 'Rejected')
    await waitText(second, 'Too close to an existing topic.')
    await choose(page, 'Status', 'Rejected')
    await second.waitFor()
    await app.expectClean()
    await app.close()

    // The mentor's dashboard shows the outcomes.
    const own = await openApp(browser, mentor.user.username, { path: '/dashboard' })
    await waitText(card(own.page, approve.subject), 'Approved')
    await waitText(card(own.page, reject.subject), 'Rejection Reason:')
    await waitText(card(own.page, reject.subject), 'Too close to an existing topic.')
    await own.close()
    await mentor.dispose()
  }, 120_000)

  it('reviews offline; the approval lands after reconnecting', async () => {
    const mentor = await ApiAs.signIn(browser, uniqueName('offline-proposer'))
    const topic = await mentor.createTopic({ subject: uniqueName('Offline review') })
    const watcher = await openApp(browser, mentor.user.username, { path: '/dashboard' })
    await waitText(card(watcher.page, topic.subject), 'Pending')

    const app = await openApp(browser, 'admin', { path: '/admin/topics' })
    const { page } = app
    await page.getByLabel('Search topics').fill(topic.subject)
    const topicCard = card(page, topic.subject)
    await topicCard.waitFor()
    await app.context.setOffline(true)
    await page.getByRole('button', { name: /^Sync status: Offline/ }).waitFor()
    await topicCard.getByRole('button', { name: 'Review Topic' }).click()
    const dialog = await openedDialog(page, 'Review Topic')
    await dialog.getByRole('button', { name: 'Approve Topic' }).click()
    await expectToast(page, 'Saved on this device')
    await dialogClosed(dialog)
    await waitText(topicCard, 'Approved')
    await waitText(topicCard, 'Waiting to sync')
    await screenshotWidths(page, 'admin-topics-offline-review')

    await app.context.setOffline(false)
    await waitForSynced(page)
    await topicCard.getByText('Waiting to sync').waitFor({ state: 'detached' })
    await waitText(card(watcher.page, topic.subject), 'Approved', 10_000)
    await app.expectClean()
    await Promise.all([app.close(), watcher.close(), mentor.dispose()])
  }, 120_000)

  it('search users and switch Admin on for another user, never for oneself', async () => {
    const person = await ApiAs.signIn(browser, uniqueName('promoted'))
    const name = person.user.username
    await person.call('PATCH', `/api/users/${name}`, { seniority: 'senior' })
    const app = await openApp(browser, 'admin', { path: '/admin/users' })
    const { page } = app
    await page.getByRole('heading', { name: 'User Management', level: 1 }).waitFor()
    await page.getByLabel('Search users').fill(name.toUpperCase())
    const profileLink = page.getByRole('link', { name: new RegExp(name) })
    await profileLink.waitFor()
    expect(await profileLink.getAttribute('href')).toBe(`/profile/${name}`)
    await waitText(page.getByRole('listitem'), 'Senior')
    const toggle = page.getByRole('switch', { name: 'Admin' })
    expect(await toggle.count()).toBe(1)
    expect(await toggle.getAttribute('aria-checked')).toBe('false')
    expect(await toggle.getAttribute('aria-describedby')).toBeTruthy()
    await waitText(page, `Administrator rights for ${name}`)
    await screenshotWidths(page, 'admin-users')
    expect(await seriousAxeViolations(page)).toEqual([])

    await toggle.click()
    await expectToast(page, 'User admin status updated successfully')
    expect(await toggle.getAttribute('aria-checked')).toBe('true')
    await waitText(page.getByRole('listitem'), 'Administrator')

    // One's own switch is off limits.
    await page.getByLabel('Search users').fill('')
    const own = page
      .getByRole('listitem')
      .filter({ has: page.getByText('@admin', { exact: true }) })
    await waitText(own, "You can't change your own administrator status.")
    expect(await own.getByRole('switch', { name: 'Admin' }).isDisabled()).toBe(true)
    await app.expectClean()
    await app.close()

    // The promoted user is an administrator now: their app offers the admin screens.
    expect((await person.call<{ isAdmin: boolean }>('GET', '/api/user')).isAdmin).toBe(true)
    const promoted = await openApp(browser, name, { path: `/profile/${name}` })
    await promoted.page.getByRole('link', { name: 'Manage Users' }).first().waitFor()
    await waitText(promoted.page.getByRole('main'), 'Administrator')
    await screenshotWidths(promoted.page, 'admin-promoted-profile')

    // Demoted while on an admin screen: taken off it and told, once the change syncs.
    await promoted.page.goto('/admin/users')
    await promoted.page.getByRole('heading', { name: 'User Management', level: 1 }).waitFor()
    const seeded = await ApiAs.signIn(browser, 'admin')
    await seeded.call('POST', `/api/admin/users/${person.user.id}/toggle-admin`)
    await seeded.dispose()
    await expectToast(
      promoted.page,
      'An administrator removed your administrator rights. The admin screens are closed.',
    )
    await promoted.page.waitForURL((url) => url.pathname === '/')
    expect(await promoted.page.getByRole('link', { name: 'Manage Users' }).count()).toBe(0)
    await Promise.all([promoted.close(), person.dispose()])
  }, 120_000)

  it('look right in dark mode', async () => {
    const app = await openApp(browser, 'admin', {
      path: '/admin/users',
      colorScheme: 'dark',
    })
    await app.page.getByRole('switch', { name: 'Admin' }).first().waitFor()
    await screenshotWidths(app.page, 'admin-users-dark')
    expect(await seriousAxeViolations(app.page)).toEqual([])
    await app.page.goto('/admin/topics')
    await app.page.getByRole('article').first().waitFor()
    await screenshotWidths(app.page, 'admin-topics-dark')
    expect(await seriousAxeViolations(app.page)).toEqual([])
    await app.close()
  }, 120_000)
})
