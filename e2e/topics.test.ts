import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { XSS_PAYLOADS } from '../sync-server/topics/xss-payloads.ts'
import {
  ApiAs,
  DESKTOP,
  openApp,
  PHONE,
  screenshotWidths,
  seriousAxeViolations,
  TABLET,
  uniqueName,
} from './app.ts'
import { launchBrowser, screenshot } from './browser.ts'
import {
  approvedTopic,
  type Cast,
  cardOf,
  castOf,
  chooseFilter,
  closeToasts,
  dangerousMarkup,
  gridColumns,
} from './topics-fixtures.ts'
import { dialogClosed, openedDialog, waitText } from './ui.ts'

// The topic list (/topics) and the topic detail (/topics/{id}) as mentors and mentees use them.

let browser: Browser
let cast: Cast

beforeAll(async () => {
  browser = await launchBrowser()
  cast = await castOf(browser)
})
afterAll(async () => {
  await cast?.dispose()
  await browser?.close()
})

const LONG_DESCRIPTION = `<h2>What we will cover</h2><p>${'Design reviews, pairing sessions and a reading list. '.repeat(12)}</p><ul><li>One</li><li>Two</li><li><a href="https://example.com/reading-list">The reading list</a></li></ul>`

describe('the topic list', () => {
  it('shows each topic as a card in a 1/2/3-column grid', async () => {
    const topic = await approvedTopic(cast, {
      description: LONG_DESCRIPTION,
      location: 'both',
      seniorityRequired: ['senior', 'junior'],
      maxMentees: 2,
    })
    const app = await openApp(browser, uniqueName('mentee'), { path: '/topics' })
    const { page } = app
    await page.getByRole('heading', { level: 1, name: 'Mentorship Topics' }).waitFor()
    const main = page.getByRole('main')
    expect(await main.getByRole('link', { name: 'Create Topic' }).getAttribute('href')).toBe(
      '/create',
    )
    const card = cardOf(page, topic.subject)
    await card.waitFor()
    expect(await card.getByRole('link', { name: topic.subject }).getAttribute('href')).toBe(
      `/topics/${topic.id}`,
    )
    const mentorLink = card.locator(`a[href="/profile/${cast.mentor.user.username}"]`)
    expect((await mentorLink.textContent())?.trim()).not.toBe('')
    expect(await mentorLink.locator('[aria-hidden="true"], img').count()).toBe(1)
    await card.getByText('Online & In-Person').waitFor()
    const levels = card.getByRole('list', { name: 'Seniority levels' }).getByRole('listitem')
    expect(await levels.allTextContents()).toEqual(['Junior', 'Senior'])
    expect(await card.locator('svg').count()).toBeGreaterThan(3)
    expect(await card.getByText('Mentees:').textContent()).toBe('Mentees: ')
    await card.getByText('0/2').waitFor()
    // The description is rich text (a heading, a list) clamped to three lines.
    const description = card.locator('.prose-pw')
    // Its links are a preview: Tab goes from the mentor's link past them, hidden or not.
    expect(await description.locator('a').count()).toBeGreaterThan(0)
    await mentorLink.focus()
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab')
      expect(await description.evaluate((d) => d.contains(document.activeElement))).toBe(false)
    }
    expect(await description.locator('h2').textContent()).toBe('What we will cover')
    const clamp = await description.evaluate((el) => getComputedStyle(el).webkitLineClamp)
    expect(clamp).toBe('3')
    await card.getByRole('button', { name: `Apply to ${topic.subject}` }).waitFor()

    expect(await gridColumns(page)).toBe(3)
    await page.setViewportSize(TABLET)
    expect(await gridColumns(page)).toBe(2)
    await page.setViewportSize(PHONE)
    expect(await gridColumns(page)).toBe(1)
    await page.setViewportSize(DESKTOP)

    expect(await seriousAxeViolations(page)).toEqual([])
    await screenshotWidths(page, 'topics-list')
    await app.expectClean()
    await app.close()
  })

  it('filters by location and seniority', async () => {
    const tag = uniqueName('Filter')
    const online = await approvedTopic(cast, {
      subject: `${tag} online`,
      location: 'online',
      seniorityRequired: ['junior'],
    })
    const inPerson = await approvedTopic(cast, {
      subject: `${tag} in person`,
      location: 'in-person',
      seniorityRequired: ['senior'],
    })
    const both = await approvedTopic(cast, {
      subject: `${tag} both`,
      location: 'both',
      seniorityRequired: ['mid'],
    })
    const app = await openApp(browser, uniqueName('mentee'), { path: '/topics' })
    const { page } = app
    const visible = async () =>
      (await page.getByTestId('topic-card').getByRole('heading').allTextContents())
        .filter((s) => s.startsWith(tag))
        .sort()
    await cardOf(page, both.subject).waitFor()
    await expect.poll(visible).toEqual([both.subject, inPerson.subject, online.subject])

    await chooseFilter(page, 'Location', 'In Person')
    await expect.poll(visible).toEqual([both.subject, inPerson.subject])
    await chooseFilter(page, 'Seniority', 'Senior')
    await expect.poll(visible).toEqual([inPerson.subject])
    await chooseFilter(page, 'Location', 'Both')
    await expect.poll(visible).toEqual([])
    await chooseFilter(page, 'Seniority', 'Mid-Level')
    await expect.poll(visible).toEqual([both.subject])
    await chooseFilter(page, 'Location', 'Online')
    await expect.poll(visible).toEqual([both.subject])
    await chooseFilter(page, 'Location', 'All Locations')
    await chooseFilter(page, 'Seniority', 'All Levels')
    await expect.poll(visible).toEqual([both.subject, inPerson.subject, online.subject])
    await app.expectClean()
    await app.close()
  })

  it('offers Apply only when allowed, and an applicant sees Application Pending', async () => {
    const open = await approvedTopic(cast, { maxMentees: 2 })
    const full = await approvedTopic(cast, { maxMentees: 1 })
    const other = await ApiAs.signIn(browser, uniqueName('mentee'))
    await cast.mentor.decide((await other.apply(full.id)).id, 'accepted')
    await other.dispose()

    // The mentor sees no Apply on their own topic.
    const mentorApp = await openApp(browser, cast.mentor.user.username, { path: '/topics' })
    await cardOf(mentorApp.page, open.subject).waitFor()
    expect(await cardOf(mentorApp.page, open.subject).getByRole('button').count()).toBe(0)
    await mentorApp.close()

    const app = await openApp(browser, uniqueName('mentee'), { path: '/topics' })
    const { page } = app
    const fullCard = cardOf(page, full.subject)
    await fullCard.getByText('1/1').waitFor()
    expect(await fullCard.getByRole('button', { name: /Apply/ }).count()).toBe(0)

    const card = cardOf(page, open.subject)
    await card.getByRole('button', { name: `Apply to ${open.subject}` }).click()
    await page.getByText('Application submitted successfully').waitFor()
    await card.getByText('Application Pending').waitFor()
    expect(await card.getByRole('button', { name: /Apply/ }).count()).toBe(0)
    // It is the server's state: still there after a reload, and no second Apply.
    await page.reload()
    await cardOf(page, open.subject).getByText('Application Pending').waitFor()
    expect(await cardOf(page, open.subject).getByRole('button', { name: /Apply/ }).count()).toBe(0)
    await app.expectClean()
    await app.close()
  })

  it('explains an offline apply that the server refuses because the topic filled up', async () => {
    const topic = await approvedTopic(cast, { maxMentees: 1 })
    const app = await openApp(browser, uniqueName('mentee'), { path: '/topics' })
    const { page, context } = app
    const card = cardOf(page, topic.subject)
    await card.getByRole('button', { name: `Apply to ${topic.subject}` }).waitFor()

    await context.setOffline(true)
    await card.getByRole('button', { name: `Apply to ${topic.subject}` }).click()
    await card.getByText('Awaiting confirmation').waitFor()
    expect(await card.getByText('Application Pending').count()).toBe(0)

    // Meanwhile someone else applies and is accepted: the topic is full.
    const rival = await ApiAs.signIn(browser, uniqueName('rival'))
    await cast.mentor.decide((await rival.apply(topic.id)).id, 'accepted')
    await rival.dispose()

    await context.setOffline(false)
    const reason = 'This topic is full: it already has the maximum number of mentees.'
    // The toast says it as the refusal comes in (for 5 s); the card from the list's next read,
    // which during a first sync still running comes up to a few seconds later: in either order.
    const alert = page.getByRole('alert').filter({ hasText: reason })
    const [, toast] = await Promise.all([
      card.getByText(reason).waitFor({ timeout: 20_000 }),
      alert.waitFor({ timeout: 20_000 }).then(() => alert.textContent()),
    ])
    expect(toast).toContain('Error')
    await card.getByText('1/1').waitFor()
    // The refused change leaves its card once its answer is in and a pull has caught up: the
    // pull that brings 1/1 can come a moment before that one (about 0.25 s).
    await card.getByText('Awaiting confirmation').waitFor({ state: 'detached', timeout: 5_000 })
    await card.getByText('Full', { exact: true }).waitFor()
    expect(await card.getByRole('button', { name: /Apply/ }).count()).toBe(0)
    await screenshot(page, 'topics-list-refused-apply-desktop')
    await app.close()
  })
})

describe('the topic detail', () => {
  it('shows everything about a topic, and "Topic not found" for a missing one', async () => {
    const topic = await approvedTopic(cast, {
      description: '<h2>Plan</h2><p>We will <strong>pair</strong> every week.</p>',
      location: 'both',
      seniorityRequired: ['mid', 'senior'],
      maxMentees: 2,
      interests: ['TypeScript', 'Testing'],
    })
    const app = await openApp(browser, uniqueName('mentee'), { path: `/topics/${topic.id}` })
    const { page } = app
    await page.getByRole('heading', { level: 1, name: topic.subject }).waitFor()
    const details = page.getByRole('complementary', { name: 'Topic details' })
    await details.getByText('Mentees required').waitFor()
    expect(await details.locator('dd').nth(2).textContent()).toBe('2')
    await details.getByText('Approved').waitFor()
    await details.getByText('Online & In-Person').waitFor()
    expect(
      await details
        .getByRole('list', { name: 'Seniority levels' })
        .getByRole('listitem')
        .allTextContents(),
    ).toEqual(['Mid-Level', 'Senior'])
    await details.getByText('Mentor', { exact: true }).waitFor()
    await details
      .locator(`a[href="/profile/${cast.mentor.user.username}"]`)
      .getByText(`@${cast.mentor.user.username}`)
      .waitFor()
    expect(await page.locator('.prose-pw strong').textContent()).toBe('pair')
    expect(
      await page.getByRole('list', { name: 'Interests' }).getByRole('listitem').allTextContents(),
    ).toEqual(['#TypeScript', '#Testing'])
    await page.getByRole('button', { name: `Apply to ${topic.subject}` }).waitFor()
    expect(await page.getByRole('button', { name: 'Start Topic' }).count()).toBe(0)
    expect(await page.getByRole('link', { name: 'Edit Topic' }).count()).toBe(0)
    expect(await seriousAxeViolations(page)).toEqual([])
    await screenshotWidths(page, 'topic-detail')

    await page.goto('/topics/00000000-0000-4000-8000-000000000000')
    await page.getByRole('heading', { level: 1, name: 'Topic not found' }).waitFor()
    await app.expectClean()
    await app.close()
  })

  it('runs a topic to its end: start, conclude with feedback, star feedback from both sides', async () => {
    const topic = await approvedTopic(cast, { maxMentees: 2 })
    const mentee = await openApp(browser, uniqueName('mentee'), {
      path: `/topics/${topic.id}`,
      colorScheme: 'dark',
    })
    await mentee.page.getByRole('button', { name: `Apply to ${topic.subject}` }).click()
    await mentee.page.getByText('Application submitted successfully').waitFor()
    const [application] = await cast.mentor.call<{ id: string }[]>(
      'GET',
      `/api/topics/${topic.id}/applications`,
    )
    await cast.mentor.decide(application?.id ?? '', 'accepted')
    await mentee.page.getByText('Accepted', { exact: true }).waitFor()
    // A second mentee still waits for an answer when the mentor starts the topic.
    const waiting = await ApiAs.signIn(browser, uniqueName('waiting'))
    await waiting.call('POST', `/api/topics/${topic.id}/apply`)
    await waiting.dispose()

    const mentor = await openApp(browser, cast.mentor.user.username, {
      path: `/topics/${topic.id}`,
    })
    const page = mentor.page
    await page.getByRole('link', { name: 'Edit Topic' }).waitFor()
    // Starting asks first and says what happens to the pending application.
    const startButton = page.getByRole('button', { name: 'Start Topic' })
    await startButton.click()
    let confirm = await openedDialog(page, 'Start this topic?')
    await waitText(confirm, 'One pending application will be closed, and that mentee is told.')
    expect(await seriousAxeViolations(page)).toEqual([])
    await screenshotWidths(page, 'topic-start-dialog')
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await dialogClosed(confirm)
    // Focus goes back to the button as the dialog unmounts, which may be a frame after it left.
    await expect
      .poll(() => startButton.evaluate((e) => e === document.activeElement), { timeout: 2_000 })
      .toBe(true)
    expect(await page.getByRole('link', { name: 'Edit Topic' }).count()).toBe(1)
    await startButton.click()
    confirm = await openedDialog(page, 'Start this topic?')
    await confirm.getByRole('button', { name: 'Start Topic' }).click()
    await page.getByText('Topic started successfully').waitFor()
    await dialogClosed(confirm)
    await page.getByRole('complementary').getByText('In Progress').waitFor()
    expect(await page.getByRole('link', { name: 'Edit Topic' }).count()).toBe(0)

    await page.getByRole('button', { name: 'Conclude Topic' }).click()
    const dialog = page.getByRole('dialog', { name: 'Conclude Topic' })
    const submit = dialog.getByRole('button', { name: 'Conclude Topic' })
    expect(await submit.isDisabled()).toBe(true)
    await dialog.getByLabel('Mentor feedback').fill('   ')
    expect(await submit.isDisabled()).toBe(true)
    await dialog.getByLabel('Mentor feedback').fill('A focused, curious mentee. Great progress.')
    expect(await submit.isEnabled()).toBe(true)
    await screenshotWidths(page, 'topic-conclude-dialog')
    await submit.click()
    await page.getByText('Topic concluded successfully').waitFor()
    await page.getByText('A focused, curious mentee. Great progress.').waitFor()
    await page.getByText('No feedback yet').waitFor()

    // The mentee rates it 3 stars with the keyboard.
    const m = mentee.page
    await m.getByRole('button', { name: 'Add Feedback' }).click()
    const feedback = m.getByRole('dialog', { name: 'Add Feedback' })
    expect(await feedback.getByRole('radio', { name: '5 stars' }).isChecked()).toBe(true)
    const send = feedback.getByRole('button', { name: 'Submit Feedback' })
    expect(await send.isDisabled()).toBe(true)
    await feedback.getByLabel('Your feedback').fill('Patient and practical.')
    await feedback.getByRole('radio', { name: '5 stars' }).focus()
    await m.keyboard.press('ArrowLeft')
    await m.keyboard.press('ArrowLeft')
    expect(await feedback.getByRole('radio', { name: '3 stars' }).isChecked()).toBe(true)
    await screenshotWidths(m, 'topic-feedback-dialog-dark')
    await send.click()
    await m.getByText('Feedback submitted successfully').waitFor()
    const item = m.getByTestId('feedback-item').filter({ hasText: 'Patient and practical.' })
    await item.getByRole('img', { name: 'Rated 3 out of 5' }).waitFor()
    await m.getByRole('button', { name: 'Edit Feedback' }).waitFor()
    await closeToasts(m)
    expect(await seriousAxeViolations(m)).toEqual([])
    await screenshotWidths(m, 'topic-detail-concluded-dark')

    // The mentor's own feedback (default 5 stars); the mentor sees both.
    await page.getByText('Patient and practical.').waitFor()
    await page.getByRole('button', { name: 'Add Feedback' }).click()
    const mine = page.getByRole('dialog', { name: 'Add Feedback' })
    await mine.getByLabel('Your feedback').fill('A pleasure to mentor.')
    await mine.getByRole('button', { name: 'Submit Feedback' }).click()
    await page.getByText('Feedback submitted successfully').waitFor()
    const own = page.getByTestId('feedback-item').filter({ hasText: 'A pleasure to mentor.' })
    await own.getByRole('img', { name: 'Rated 5 out of 5' }).waitFor()
    await own.getByText('Mentor', { exact: true }).waitFor()
    await mentee.expectClean()
    await mentor.expectClean()
    await mentee.close()
    await mentor.close()
  })

  it('renders a description full of XSS payloads inert', async () => {
    // Some payloads open an element that swallows the rest (an unclosed textarea): the links go first.
    const payloads = [
      '<p><a href="https://example.com/ok">Good link</a></p>',
      '<p><a href="javascript:window.__pwned=1" id="bad">Bad link</a></p>',
      '<img src=x onerror="window.__pwned=1">',
      ...XSS_PAYLOADS.slice(0, 60).map((p) => p.html),
    ]
    const topic = await approvedTopic(cast, { description: payloads.join('\n').slice(0, 49_000) })
    const app = await openApp(browser, uniqueName('mentee'), { path: '/topics' })
    const { page } = app
    const dialogs: string[] = []
    page.on('dialog', (d) => {
      dialogs.push(d.message())
      void d.dismiss()
    })
    await cardOf(page, topic.subject).waitFor()
    await page.goto(`/topics/${topic.id}`)
    await page.getByRole('heading', { level: 1, name: topic.subject }).waitFor()
    const good = page.locator('.prose-pw').getByRole('link', { name: 'Good link' })
    expect(await good.getAttribute('target')).toBe('_blank')
    expect(await good.getAttribute('rel')).toBe('noopener noreferrer nofollow')
    await page.locator('.prose-pw').getByText('Bad link').click()
    await page.waitForTimeout(500)
    expect(await dangerousMarkup(page)).toEqual([])
    expect(dialogs).toEqual([])
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined()
    expect(await app.cspViolations()).toEqual([])
    await app.close()
  })
})
