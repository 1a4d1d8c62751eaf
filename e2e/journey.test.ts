import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppPage, openApp, screenshot, uniqueName } from './app.ts'
import { launchBrowser } from './browser.ts'
import { editor } from './topic-form-steps.ts'
import { cardOf } from './topics-fixtures.ts'
import { card, choose, dialogClosed, expectToast, openedDialog, waitText } from './ui.ts'

// The whole programme through the UI only: a mentor proposes a topic, the
// administrator approves it, two mentees apply, the mentor accepts one and
// rejects the other, runs the topic to its end, and both sides leave
// feedback. Four people, four browser contexts, one server.

let browser: Browser
const opened: AppPage[] = []

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await Promise.all(opened.map((app) => app.close()))
  await browser?.close()
})

async function open(username: string, path: string): Promise<AppPage> {
  const app = await openApp(browser, username, { path })
  opened.push(app)
  return app
}

const applicationRow = (page: Page, username: string) =>
  page.getByRole('listitem', { name: `Application from ${username}` })

describe('the mentorship journey', () => {
  it('runs a topic from proposal to feedback, by four people in four browsers', async () => {
    const subject = uniqueName('Journey topic')
    const reason = 'Looking for more experience'
    const mentor = await open(uniqueName('journey-mentor'), '/create')
    const admin = await open('admin', '/admin/topics')
    const menteeA = await open(uniqueName('journey-a'), '/topics')
    const menteeB = await open(uniqueName('journey-b'), '/topics')
    const nameA = menteeA.user.username
    const nameB = menteeB.user.username

    // 1. The mentor proposes the topic.
    const m = mentor.page
    await m.getByRole('heading', { name: 'Create Topic', level: 1 }).waitFor()
    await m.getByRole('textbox', { name: 'Subject' }).fill(subject)
    await editor(m).click()
    await m.keyboard.type('Pairing on real tasks every week, with a short reading list.')
    await m.getByRole('radio', { name: /^2 mentees/ }).click()
    await choose(m, 'Required Seniority', 'Junior')
    await m.getByRole('radio', { name: /^Online Only/ }).click()
    expect(await m.getByRole('radio', { name: /^Online Only/ }).getAttribute('aria-checked')).toBe(
      'true',
    )
    await m.getByRole('button', { name: 'Create Topic' }).click()
    await expectToast(m, 'Topic created successfully')
    await m.waitForURL((url) => url.pathname === '/')

    // 2. The administrator approves it.
    const a = admin.page
    await a.getByRole('heading', { name: 'Topic Management', level: 1 }).waitFor()
    await a.getByLabel('Search topics').fill(subject)
    const reviewCard = card(a, subject)
    await waitText(reviewCard, 'Proposed', 20_000)
    await waitText(reviewCard, 'Seniority: Junior')
    await reviewCard.getByRole('button', { name: 'Review Topic' }).click()
    const review = await openedDialog(a, 'Review Topic')
    await review.getByRole('radio', { name: /^Approve/ }).click()
    await review.getByRole('button', { name: 'Approve Topic' }).click()
    await expectToast(a, 'Topic approved successfully')
    await dialogClosed(review)
    await choose(a, 'Status', 'All statuses')
    await waitText(reviewCard, 'Approved')

    // 3. Both mentees find it on the topic list (it arrives by sync) and apply.
    for (const mentee of [menteeA, menteeB]) {
      const page = mentee.page
      const topicCard = cardOf(page, subject)
      const apply = topicCard.getByRole('button', { name: `Apply to ${subject}` })
      await apply.waitFor({ timeout: 20_000 })
      await topicCard.getByText('Online', { exact: true }).waitFor()
      await topicCard.getByText('0/2').waitFor()
      await apply.click()
      await expectToast(page, 'Application submitted successfully')
      await topicCard.getByText('Application Pending').waitFor({ timeout: 15_000 })
      expect(await topicCard.getByRole('button', { name: /Apply/ }).count()).toBe(0)
      // Their enrollments stay open from here on: the decision arrives by sync.
      await page.getByRole('link', { name: 'Dashboard' }).first().click()
      await page.getByRole('tab', { name: 'My Enrollments' }).click()
      await waitText(card(page, subject), 'Pending')
    }

    // 4. The mentor accepts A and rejects B with a reason.
    await m.goto('/dashboard')
    const mentorCard = card(m, subject)
    await waitText(mentorCard, 'Approved', 20_000)
    await applicationRow(m, nameA).waitFor({ timeout: 20_000 })
    await applicationRow(m, nameB).waitFor({ timeout: 20_000 })
    await applicationRow(m, nameA).getByRole('button', { name: 'Accept' }).click()
    await expectToast(m, 'Application accepted successfully')
    await waitText(applicationRow(m, nameA), 'Accepted')
    await waitText(mentorCard, 'Mentees: 1/2')
    await applicationRow(m, nameB).getByRole('button', { name: 'Reject' }).click()
    const reject = await openedDialog(m, 'Reject Application')
    await reject.getByPlaceholder('Enter rejection reason...').fill(reason)
    await reject.getByRole('button', { name: 'Confirm Rejection' }).click()
    await expectToast(m, 'Application rejected successfully')
    await dialogClosed(reject)
    await waitText(applicationRow(m, nameB), `Rejection reason: ${reason}`)

    // 5. The mentees' open dashboards change by themselves.
    await waitText(card(menteeA.page, subject), 'Active', 15_000)
    const refused = card(menteeB.page, subject)
    await waitText(refused, 'Rejected', 15_000)
    await waitText(refused, reason, 15_000)

    // 6. The mentor starts the topic, then concludes it with feedback.
    await mentorCard.getByRole('link', { name: subject }).click()
    await m.getByRole('heading', { level: 1, name: subject }).waitFor()
    await m.getByRole('button', { name: 'Start Topic' }).click()
    const start = await openedDialog(m, 'Start this topic?')
    await start.getByRole('button', { name: 'Start Topic' }).click()
    await expectToast(m, 'Topic started successfully')
    await m.getByRole('complementary').getByText('In Progress').waitFor()
    await m.getByRole('button', { name: 'Conclude Topic' }).click()
    const conclude = await openedDialog(m, 'Conclude Topic')
    await conclude
      .getByLabel('Mentor feedback')
      .fill('Steady progress; ready for a mid-level role.')
    await conclude.getByRole('button', { name: 'Conclude Topic' }).click()
    await expectToast(m, 'Topic concluded successfully')
    await dialogClosed(conclude)
    await waitText(m, 'Steady progress; ready for a mid-level role.')

    // 7. Mentee A rates it 4 stars; the mentor 5.
    const pa = menteeA.page
    await card(pa, subject).getByRole('link', { name: subject }).click()
    await pa.getByRole('heading', { level: 1, name: subject }).waitFor()
    await pa.getByRole('button', { name: 'Add Feedback' }).click({ timeout: 15_000 })
    const menteeFeedback = await openedDialog(pa, 'Add Feedback')
    await menteeFeedback.getByLabel('Your feedback').fill('Clear explanations and useful tasks.')
    await menteeFeedback.getByRole('radio', { name: '4 stars' }).click()
    expect(await menteeFeedback.getByRole('radio', { name: '4 stars' }).isChecked()).toBe(true)
    await menteeFeedback.getByRole('button', { name: 'Submit Feedback' }).click()
    await expectToast(pa, 'Feedback submitted successfully')
    await dialogClosed(menteeFeedback)

    await m.getByRole('button', { name: 'Add Feedback' }).click()
    const mentorFeedback = await openedDialog(m, 'Add Feedback')
    await mentorFeedback.getByLabel('Your feedback').fill('A pleasure to work with.')
    await mentorFeedback.getByRole('radio', { name: '5 stars' }).click()
    await mentorFeedback.getByRole('button', { name: 'Submit Feedback' }).click()
    await expectToast(m, 'Feedback submitted successfully')
    await dialogClosed(mentorFeedback)

    // Both show in the topic's feedback list, on both pages, with their ratings.
    for (const page of [m, pa]) {
      const items = page.getByTestId('feedback-item')
      const fromMentee = items.filter({ hasText: 'Clear explanations and useful tasks.' })
      const fromMentor = items.filter({ hasText: 'A pleasure to work with.' })
      await fromMentee.getByRole('img', { name: 'Rated 4 out of 5' }).waitFor({ timeout: 15_000 })
      await fromMentor.getByRole('img', { name: 'Rated 5 out of 5' }).waitFor({ timeout: 15_000 })
      await fromMentor.getByText('Mentor', { exact: true }).waitFor()
      expect(await fromMentee.getByText('Mentor', { exact: true }).count()).toBe(0)
    }
    await screenshot(m, 'journey-concluded-feedback-mentor')
    await screenshot(pa, 'journey-concluded-feedback-mentee')

    for (const app of opened.splice(0)) await app.close()
  }, 180_000)
})
