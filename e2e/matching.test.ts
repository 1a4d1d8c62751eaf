import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ApiAs,
  openApp,
  PHONE,
  screenshotWidths,
  seriousAxeViolations,
  uniqueName,
  waitForSynced,
} from './app.ts'
import { launchBrowser } from './browser.ts'
import { expectToast } from './ui.ts'

// Matching (issue 17): a mentee fills interests, sees recommendations with
// their reasons, dismisses one, applies to another offline; a mentor invites
// a person looking for a mentor, who then applies (or declines).

let browser: Browser
let admin: ApiAs

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await ApiAs.signIn(browser, 'admin')
}, 60_000)

afterAll(async () => {
  await admin?.dispose()
  await browser?.close()
})

/** An interest nobody else uses, so the test sees only its own topics recommended. */
const interest = (prefix: string) => `${prefix}${uniqueName('').replace(/[^A-Za-z0-9]/g, '')}`

async function approvedTopic(
  mentor: ApiAs,
  input: {
    subject: string
    interests: string[]
    seniorityRequired?: ('junior' | 'mid' | 'senior')[]
  },
) {
  const topic = await mentor.createTopic({
    subject: input.subject,
    interests: input.interests,
    seniorityRequired: input.seniorityRequired ?? ['junior', 'mid'],
  })
  await admin.review(topic.id, 'approved')
  return topic
}

const recommendations = (page: Page) => page.getByTestId('recommendation')
const recommendation = (page: Page, subject: string) =>
  recommendations(page).filter({ has: page.getByRole('link', { name: subject }) })

describe('recommendations', () => {
  it('asks for interests, then recommends with reasons; Not interested sticks; an offline apply lands', async () => {
    const mentor = await ApiAs.signIn(browser, uniqueName('match-mentor'))
    const main = interest('Quasar')
    const second = interest('Nebula')
    const best = await approvedTopic(mentor, {
      subject: uniqueName('Best fit'),
      interests: [main, second],
    })
    const other = await approvedTopic(mentor, {
      subject: uniqueName('Other fit'),
      interests: [main, 'Knitting', 'Pottery'],
    })
    const third = await approvedTopic(mentor, {
      subject: uniqueName('Third fit'),
      interests: [main, 'Cooking', 'Gardening'],
      seniorityRequired: ['senior'],
    })

    const menteeName = uniqueName('match-mentee')
    const app = await openApp(browser, menteeName, { path: '/topics', ...PHONE })
    const { page } = app
    // No interests yet: a question, with the interests topics use most, instead of a guess.
    await page.getByText('What would you like to learn about?').waitFor()
    await page
      .getByRole('list', { name: 'Popular interests' })
      .getByRole('button')
      .first()
      .waitFor()
    expect(await recommendations(page).count()).toBe(0)

    // Fill interests on the profile, one typed in another spelling: the picker offers the known one.
    await page.goto(`/profile/${menteeName}`)
    const picker = page.getByRole('combobox', { name: 'Interests' })
    await picker.fill(main.toLowerCase())
    await page.getByRole('option', { name: main, exact: true }).click()
    await picker.fill(second)
    await page.getByRole('option', { name: second, exact: true }).click()
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await expectToast(page, 'Profile updated successfully')
    await waitForSynced(page)

    await page.goto('/topics')
    await recommendation(page, best.subject).waitFor()
    // Best first, with its score and reasons on one line.
    const first = recommendations(page).first()
    await first.getByRole('link', { name: best.subject }).waitFor()
    // Interests 1, seniority unknown 0.5, location 1, places 1, answers unknown 0.5: 9.5 / 11.
    await first.getByText('86% match').waitFor()
    expect(await first.getByTestId('reasons').textContent()).toBe(
      `Shares ${main} and ${second} · online · 2 places free`,
    )
    await recommendation(page, other.subject).waitFor()
    await recommendation(page, third.subject).waitFor()
    await screenshotWidths(page, 'recommended-topics')
    expect(await seriousAxeViolations(page)).toEqual([])

    // Not interested: gone at once, with Undo; still gone after a reload (it is synced).
    await recommendation(page, other.subject)
      .getByRole('button', { name: `Not interested in “${other.subject}”` })
      .click()
    await recommendation(page, other.subject).waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'Undo' }).waitFor()
    await expectToast(page, `“${other.subject}” will not be recommended to you again.`)
    await waitForSynced(page)
    const dismissals = await app.context.request.get('/api/dismissals')
    expect(await dismissals.json()).toContainEqual(
      expect.objectContaining({ topicId: other.id, dismissed: true }),
    )
    await page.reload()
    await recommendation(page, best.subject).waitFor()
    expect(await recommendation(page, other.subject).count()).toBe(0)

    // Apply to the third offline: it leaves the recommendations, and lands when back online.
    await app.context.setOffline(true)
    await recommendation(page, third.subject).getByRole('link', { name: third.subject }).click()
    await page.getByRole('heading', { level: 1, name: third.subject }).waitFor()
    await page.getByRole('button', { name: 'Apply' }).first().click()
    await page.getByText('Saved on this device').first().waitFor()
    await page.goBack()
    await recommendation(page, best.subject).waitFor()
    await expect.poll(() => recommendation(page, third.subject).count()).toBe(0)
    await app.context.setOffline(false)
    await waitForSynced(page)
    await expect
      .poll(
        async () =>
          (
            await mentor.call<{ mentee: { username: string } }[]>(
              'GET',
              `/api/topics/${third.id}/applications`,
            )
          ).map((a) => a.mentee.username),
        { timeout: 20_000 },
      )
      .toContain(menteeName)
    await app.expectClean()
    await app.context.close()
    await mentor.dispose()
  })
})

describe('invitations', () => {
  it('a mentor finds a person looking for a mentor and invites them in two clicks; they apply', async () => {
    const mentorName = uniqueName('inviting-mentor')
    const mentor = await ApiAs.signIn(browser, mentorName)
    const shared = interest('Pulsar')
    const topic = await approvedTopic(mentor, {
      subject: uniqueName('Invite topic'),
      interests: [shared],
    })

    const looking = await ApiAs.signIn(browser, uniqueName('looking'))
    await looking.call('PATCH', `/api/users/${looking.user.username}`, {
      interests: [shared],
      seniority: 'junior',
      lookingForMentor: true,
      preferredLocation: 'online',
    })
    const quiet = await ApiAs.signIn(browser, uniqueName('quiet'))
    await quiet.call('PATCH', `/api/users/${quiet.user.username}`, {
      interests: [shared],
      lookingForMentor: false,
    })

    // Click one: the topic from the dashboard.
    const app = await openApp(browser, mentorName, { path: '/dashboard' })
    const { page } = app
    await page.getByRole('link', { name: topic.subject }).first().click()
    const fits = page.getByRole('list', { name: 'People who might fit' })
    const person = fits.getByTestId('candidate').filter({ hasText: looking.user.username })
    await person.waitFor()
    expect(await person.textContent()).toContain(`Shares ${shared}`)
    expect(await person.textContent()).toContain('no mentor yet')
    // Only people who said they are looking are listed.
    expect(await fits.getByText(quiet.user.username).count()).toBe(0)
    await screenshotWidths(page, 'people-who-might-fit')
    // Click two: Invite.
    await person.getByRole('button', { name: /^Invite / }).click()
    await page
      .getByRole('region', { name: /^Notifications/ })
      .getByText(/ is invited to apply to “/)
      .waitFor()
    await person.getByText('Invited').waitFor()
    await waitForSynced(page)

    // Once per person and topic: the server refuses a second invitation.
    const again = await mentor.request.fetch(`/api/topics/${topic.id}/invitations`, {
      method: 'POST',
      headers: { origin: new URL(page.url()).origin },
      data: { menteeId: looking.user.id },
    })
    expect(again.status()).toBe(409)

    // The person invited: a notification that opens the topic, with the invitation shown.
    const invited = await openApp(browser, looking.user.username, { path: '/' })
    await invited.page
      .getByRole('button', { name: /notifications/i })
      .first()
      .click()
    await invited.page.getByText('Invitation to apply').first().click()
    await invited.page.getByRole('heading', { level: 1, name: topic.subject }).waitFor()
    await invited.page.getByRole('heading', { name: 'You are invited' }).waitFor()
    await screenshotWidths(invited.page, 'invited-topic')
    await invited.page.getByRole('button', { name: 'Apply' }).first().click()
    await invited.page.getByRole('heading', { name: 'Your application' }).waitFor()
    await waitForSynced(invited.page)
    const applications = await mentor.call<{ mentee: { id: string } }[]>(
      'GET',
      `/api/topics/${topic.id}/applications`,
    )
    expect(applications.map((a) => a.mentee.id)).toContain(looking.user.id)

    await app.expectClean()
    await invited.expectClean()
    await Promise.all([app.context.close(), invited.context.close()])
    await Promise.all([mentor.dispose(), looking.dispose(), quiet.dispose()])
  })

  it('an invitation can be declined, and the mentor sees it', async () => {
    const mentorName = uniqueName('declined-mentor')
    const mentor = await ApiAs.signIn(browser, mentorName)
    const shared = interest('Quark')
    const topic = await approvedTopic(mentor, {
      subject: uniqueName('Declined topic'),
      interests: [shared],
    })
    const person = await ApiAs.signIn(browser, uniqueName('decliner'))
    await person.call('PATCH', `/api/users/${person.user.username}`, {
      interests: [shared],
      lookingForMentor: true,
    })
    await mentor.call('POST', `/api/topics/${topic.id}/invitations`, { menteeId: person.user.id })

    const app = await openApp(browser, person.user.username, { path: `/topics/${topic.id}` })
    await app.page.getByRole('heading', { name: 'You are invited' }).waitFor()
    await app.page.getByRole('button', { name: 'Decline invitation' }).click()
    await expectToast(app.page, 'The mentor will see that you declined. You can still apply later.')
    await app.page
      .getByText('You declined the invitation to this topic. You can still apply.')
      .waitFor()
    await waitForSynced(app.page)

    const seen = await openApp(browser, mentorName, { path: `/topics/${topic.id}` })
    await seen.page
      .getByTestId('candidate')
      .filter({ hasText: person.user.username })
      .getByText('Declined')
      .waitFor()
    await app.expectClean()
    await seen.expectClean()
    await Promise.all([app.context.close(), seen.context.close()])
    await Promise.all([mentor.dispose(), person.dispose()])
  })
})
