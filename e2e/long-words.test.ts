import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiAs, openApp, screenshotWidths } from './app.ts'
import { launchBrowser } from './browser.ts'

// Long unbroken words (a 60-character word in a subject, an interest, a
// description, a name) never make a page scroll sideways on a 360 px phone.

/** A 60-character word with no place to break it. */
const WORD = 'Donaudampfschifffahrtselektrizitaetenhauptbetriebswerkbauunt'

/** A username (and so a name) of 60 characters in one word. */
function longName(): string {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
  return `Wolfeschlegelsteinhausenbergerdorffvoralternwaren${suffix}`.slice(0, 60)
}

/** The narrowest phone the app is made for. */
const PHONE_360 = { width: 360, height: 780 }

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

/** How far the page reaches past the viewport's right edge, and what sticks out. */
async function sidewaysOverflow(page: Page): Promise<{ px: number; culprits: string[] }> {
  return page.evaluate(() => {
    const root = document.documentElement
    const width = root.clientWidth
    const culprits: string[] = []
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      const box = el.getBoundingClientRect()
      if (box.width > 0 && box.right > width + 1 && culprits.length < 5) {
        culprits.push(`${el.tagName.toLowerCase()}.${el.className.toString().slice(0, 60)}`)
      }
    }
    return { px: root.scrollWidth - width, culprits }
  })
}

describe('long words on a phone', () => {
  it('never make a page scroll sideways at 360 px', async () => {
    const WORD_TEXT = `Learning ${WORD}`
    const mentorName = longName()
    const mentor = await ApiAs.signIn(browser, mentorName)
    const topic = await mentor.createTopic({
      subject: WORD_TEXT,
      description: `<p>We will read ${WORD} together, then ${WORD} again.</p>`,
      interests: [WORD],
    })
    await admin.review(topic.id, 'approved')
    const menteeName = longName()
    const asMentee = await ApiAs.signIn(browser, menteeName)
    await asMentee.call('PATCH', `/api/users/${menteeName}`, {
      bio: `My bio: ${WORD}${WORD}`,
      interests: [WORD],
    })
    await asMentee.call('POST', `/api/topics/${topic.id}/apply`)
    await asMentee.dispose()
    const mentee = await openApp(browser, menteeName, { ...PHONE_360, path: '/topics' })
    const mentorApp = await openApp(browser, mentorName, { ...PHONE_360, path: '/dashboard' })
    const adminApp = await openApp(browser, 'admin', { ...PHONE_360, path: '/admin/topics' })

    const visits: [Page, string, string, string?][] = [
      [mentee.page, '/topics', WORD_TEXT],
      [mentee.page, `/topics/${topic.id}`, WORD],
      [mentee.page, '/dashboard?tab=enrollments', WORD_TEXT],
      [mentee.page, `/profile/${encodeURIComponent(mentorName)}`, mentorName],
      [mentee.page, `/profile/${encodeURIComponent(menteeName)}`, WORD],
      [mentorApp.page, '/dashboard', menteeName],
      [adminApp.page, '/admin/topics', WORD_TEXT],
      // A list of everyone, sorted by name: found with its search field, as a person would.
      [adminApp.page, '/admin/users', mentorName, 'Search users'],
    ]
    const wide: string[] = []
    for (const [page, path, text, search] of visits) {
      await page.setViewportSize(PHONE_360)
      await page.goto(path)
      if (search) await page.getByRole('searchbox', { name: search }).fill(text)
      const shown = await page
        .getByText(text, { exact: false })
        .first()
        .waitFor({ timeout: 10_000 })
        .then(() => true)
        .catch(() => false)
      if (!shown) wide.push(`${path}: "${text.slice(0, 30)}…" not shown`)
      const { px, culprits } = await sidewaysOverflow(page)
      if (px > 0) wide.push(`${path}: ${px} px too wide (${culprits.join(', ')})`)
    }
    await mentee.page.goto(`/topics/${topic.id}`)
    await mentee.page.getByText(WORD).first().waitFor()
    await screenshotWidths(mentee.page, 'long-words-topic')
    await mentee.page.goto('/dashboard?tab=enrollments')
    await mentee.page.getByText(WORD_TEXT).first().waitFor()
    await screenshotWidths(mentee.page, 'long-words-mentee-dashboard')
    await mentorApp.page.goto('/dashboard')
    await mentorApp.page.getByText(menteeName).first().waitFor()
    await screenshotWidths(mentorApp.page, 'long-words-dashboard')
    expect(wide).toEqual([])
    for (const app of [mentee, mentorApp, adminApp]) {
      await app.expectClean()
      await app.close()
    }
    await mentor.dispose()
  })
})
