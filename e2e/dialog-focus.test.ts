import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiAs, openApp, seriousAxeViolations, uniqueName } from './app.ts'
import { launchBrowser } from './browser.ts'
import { editor } from './topic-form-steps.ts'
import { dialogClosed, openedDialog } from './ui.ts'

// Dialogs open with focus in their text field, keep Tab inside, and give focus
// back to the button that opened them (issue 16, items 3 and 5).

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

/** The accessible name (or label) of the focused element, and whether it sits in `scope`. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    return {
      tag: el?.tagName.toLowerCase() ?? '',
      label:
        el?.getAttribute('aria-label') ??
        (el?.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null) ??
        el?.textContent?.trim() ??
        '',
      inDialog: Boolean(el?.closest('[role="dialog"]')),
    }
  })
}

/**
 * Opens a dialog with `opener`, checks the focus is in `field` (a text field),
 * that twelve Tabs stay inside it, and that Escape returns focus to the opener.
 */
async function checkDialog(page: Page, openerName: string, title: string, field: string) {
  const opener = page.getByRole('button', { name: openerName, exact: true }).first()
  await opener.click()
  const dialog = await openedDialog(page, title)
  const first = await focused(page)
  expect(first.tag, title).toMatch(/^(textarea|input)$/)
  expect(first.label, title).toContain(field)
  expect(await seriousAxeViolations(page), title).toEqual([])
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab')
    expect((await focused(page)).inDialog, `${title}: Tab ${i + 1} left the dialog`).toBe(true)
  }
  await page.keyboard.press('Escape')
  await dialogClosed(dialog)
  // Focus goes back as the dialog unmounts, which may be a frame after it left the DOM.
  const back = () => opener.evaluate((e) => e === document.activeElement)
  await expect
    .poll(back, { timeout: 2_000 })
    .toBe(true)
    .catch(() => {})
  // Named in the message: what has focus instead, should it be elsewhere.
  const after = await focused(page)
  expect(
    await back(),
    `${title}: focus on ${after.tag} "${after.label.slice(0, 40)}" after closing`,
  ).toBe(true)
}

describe('dialogs and the keyboard', () => {
  it('open in their text field, keep Tab inside, and give focus back to their button', async () => {
    const mentor = await ApiAs.signIn(browser, uniqueName('focus-mentor'))
    const topic = await mentor.createTopic({ maxMentees: 2 })
    await admin.review(topic.id, 'approved')
    const accepted = await ApiAs.signIn(browser, uniqueName('focus-mentee'))
    const waiting = await ApiAs.signIn(browser, uniqueName('focus-waiting'))
    const application = await accepted.call<{ id: string }>('POST', `/api/topics/${topic.id}/apply`)
    await waiting.call('POST', `/api/topics/${topic.id}/apply`)
    await mentor.call('PATCH', `/api/applications/${application.id}`, { status: 'accepted' })

    // Reject Application, on the mentor's dashboard.
    const app = await openApp(browser, mentor.user.username, { path: '/dashboard' })
    await app.page.getByRole('button', { name: 'Reject' }).first().waitFor()
    await checkDialog(app.page, 'Reject', 'Reject Application', 'Rejection reason')

    // Conclude Topic, on the started topic's page.
    await mentor.call('POST', `/api/topics/${topic.id}/start`)
    await app.page.goto(`/topics/${topic.id}`)
    await app.page.getByRole('button', { name: 'Conclude Topic' }).waitFor()
    await checkDialog(app.page, 'Conclude Topic', 'Conclude Topic', 'Mentor feedback')

    // The editor's link dialog (Ctrl+K), on the topic form.
    await app.page.goto('/create')
    await editor(app.page).click()
    await app.page.keyboard.press('Control+k')
    const link = await openedDialog(app.page, 'Add Link')
    expect((await focused(app.page)).label).toContain('URL')
    await app.page.keyboard.press('Escape')
    await dialogClosed(link)
    // Back in the editor as the dialog unmounts (as checkDialog allows for its openers).
    await expect
      .poll(() => editor(app.page).evaluate((e) => e.contains(document.activeElement)), {
        timeout: 2_000,
      })
      .toBe(true)

    // Add Feedback, for the mentee of the concluded topic.
    await mentor.call('POST', `/api/topics/${topic.id}/conclude`, { mentorFeedback: 'Done.' })
    const menteeApp = await openApp(browser, accepted.user.username, {
      path: `/topics/${topic.id}`,
    })
    await menteeApp.page.getByRole('button', { name: 'Add Feedback' }).waitFor()
    await checkDialog(menteeApp.page, 'Add Feedback', 'Add Feedback', 'Your feedback')

    for (const opened of [app, menteeApp]) {
      await opened.expectClean()
      await opened.close()
    }
    for (const person of [mentor, accepted, waiting]) await person.dispose()
  })
})

describe('overlays and axe', () => {
  it('finds no serious or critical violation with the bell, the user menu or a dialog open', async () => {
    const mentor = await ApiAs.signIn(browser, uniqueName('overlay-mentor'))
    const topic = await mentor.createTopic()
    await admin.review(topic.id, 'approved')
    const app = await openApp(browser, mentor.user.username, { path: `/topics/${topic.id}` })
    const { page } = app
    const found: Record<string, unknown> = {}
    await page.getByRole('button', { name: /^Notifications/ }).click()
    await page
      .getByRole('dialog')
      .or(page.locator('[data-headlessui-state~="open"]'))
      .first()
      .waitFor()
    found.bell = await seriousAxeViolations(page)
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: mentor.user.username }).click()
    await page.getByRole('menu').waitFor()
    found.menu = await seriousAxeViolations(page)
    await page.keyboard.press('Escape')
    await page.getByRole('menu').waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'Start Topic' }).click()
    await openedDialog(page, 'Start this topic?')
    found.dialog = await seriousAxeViolations(page)
    expect(found).toEqual({ bell: [], menu: [], dialog: [] })
    await app.expectClean()
    await app.close()
    await mentor.dispose()
  })
})

describe('focus rings', () => {
  it('every control of the topic form and the notification settings shows where the focus is', async () => {
    const app = await openApp(browser, uniqueName('ring'), { path: '/create' })
    const { page } = app
    await page.getByRole('heading', { name: 'Create Topic', level: 1 }).waitFor()
    const unmarked = new Set<string>()
    /** Tabs through the page, noting each focused control without a visible ring. */
    const tabThrough = async (stops: number) => {
      for (let i = 0; i < stops; i++) {
        await page.keyboard.press('Tab')
        // Rings fade in with a transition on some controls.
        await page.waitForTimeout(60)
        const seen = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null
          if (!el || el === document.body) return null
          const look = (e: Element) => {
            const style = getComputedStyle(e)
            const outline =
              style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0
            return `${outline ? style.outlineColor : ''}|${style.boxShadow}|${style.borderColor}`
          }
          const own = look(el).split('|')
          const selfMarked = own[0] !== '' || own[1] !== 'none'
          // Or a frame around it that changes with the focus (focus-within, as the editor's).
          const frames = [el.parentElement, el.parentElement?.parentElement].filter(
            (e): e is HTMLElement => e instanceof HTMLElement,
          )
          const focusedLooks = frames.map(look)
          el.blur()
          const blurredLooks = frames.map(look)
          el.focus()
          const frameMarked = focusedLooks.some((l, i) => l !== blurredLooks[i])
          const ring = selfMarked || frameMarked
          const outline = false
          const name =
            el.getAttribute('aria-label') ||
            el.textContent?.trim().slice(0, 30) ||
            el.getAttribute('role') ||
            el.className.toString().slice(0, 40)
          return { name: `${el.tagName.toLowerCase()} "${name}"`, marked: outline || ring }
        })
        if (seen && !seen.marked) unmarked.add(seen.name)
      }
    }
    await page.getByRole('textbox', { name: 'Subject' }).focus()
    await tabThrough(30)
    await page.goto('/settings/notifications')
    await page.getByRole('heading', { level: 1 }).waitFor()
    await tabThrough(15)
    expect([...unmarked]).toEqual([])
    await app.expectClean()
    await app.close()
  })
})
