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
import { launchBrowser, screenshot } from './browser.ts'
import { waitForController } from './service-worker.ts'
import {
  capturePushedTopics,
  editor,
  editorFocused,
  focusedName,
  selectBack,
  submitLink,
  tool,
} from './topic-form-steps.ts'
import { choose, expectToast, waitText } from './ui.ts'

// Proposing and editing a topic: the form's rules and messages, the rich-text
// editor's formatting, links and history, and the server keeping the
// editor's HTML exactly as written.

const LINK = 'target="_blank" rel="noopener noreferrer nofollow"'
const SCHEME_ERROR =
  'Links can only use these schemes: http, https, ftp, ftps, mailto, tel, callto, sms, cid, xmpp.'

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

describe('create topic', () => {
  it('validates, formats with toolbar and shortcuts, refuses bad links, and stores the exact HTML', async () => {
    const app = await openApp(browser, uniqueName('author'), { path: '/create' })
    const { page } = app
    await page.getByRole('heading', { name: 'Create Topic', level: 1 }).waitFor()
    await screenshotWidths(page, 'topic-form-create-empty')

    // Nothing filled in: the spec's messages under the fields.
    await page.getByRole('button', { name: 'Create Topic' }).click()
    await waitText(page, 'Subject is required')
    await waitText(page, 'At least one seniority level is required')
    expect(
      await page
        .getByRole('textbox', { name: 'Subject' })
        .evaluate((e) => e === document.activeElement),
    ).toBe(true)
    expect(await seriousAxeViolations(page)).toEqual([])
    await screenshotWidths(page, 'topic-form-create-errors')

    const subject = uniqueName('Designing APIs')
    await page.getByRole('textbox', { name: 'Subject' }).fill(subject)
    expect(await page.getByText('Subject is required').count()).toBe(0)

    // Seniority: chosen levels become chips and are disabled in the select.
    await choose(page, 'Required Seniority', 'Junior')
    await page.getByRole('button', { name: 'Remove Junior' }).waitFor()
    expect(await page.getByText('At least one seniority level is required').count()).toBe(0)
    await page.getByRole('button', { name: /^Required Seniority/ }).click()
    expect(await page.getByRole('option', { name: 'Junior' }).getAttribute('aria-disabled')).toBe(
      'true',
    )
    await page.getByRole('option', { name: 'Senior', exact: true }).click()
    await page.getByRole('button', { name: 'Remove Senior' }).click()
    await page.getByRole('button', { name: 'Remove Senior' }).waitFor({ state: 'detached' })
    // Focus moves to the select once the chip is gone; on a loaded machine that is a frame later.
    await expect.poll(() => focusedName(page)).toBe('Add a seniority level')
    await choose(page, 'Required Seniority', 'Mid-Level')

    await page.getByRole('radio', { name: /2 mentees/ }).click()
    await page.getByRole('radio', { name: 'Both' }).click()

    // Interests: free text, no duplicates (ignoring case).
    const interests = page.getByRole('combobox', { name: 'Interests' })
    await interests.fill('API Design')
    await interests.press('Enter')
    await interests.fill('api design')
    await interests.press('Enter')
    await interests.press('Escape')
    expect(await page.getByRole('button', { name: 'Remove API Design' }).count()).toBe(1)

    // The toolbar: one tab stop, arrow keys, Home and End.
    await page.getByRole('textbox', { name: 'Subject' }).focus()
    await page.keyboard.press('Tab')
    expect(await focusedName(page)).toBe('Bold')
    await page.keyboard.press('ArrowRight')
    expect(await focusedName(page)).toBe('Italic')
    await page.keyboard.press('End')
    expect(await focusedName(page)).toBe('Redo')
    await page.keyboard.press('ArrowRight')
    expect(await focusedName(page)).toBe('Bold')
    await page.keyboard.press('Tab')
    expect(await editor(page).evaluate((e) => e === document.activeElement)).toBe(true)

    // Formatting through the toolbar, shortcuts and typed rules.
    const type = (text: string) => page.keyboard.type(text)
    await tool(page, 'Heading 2').click()
    expect(await tool(page, 'Heading 2').getAttribute('aria-pressed')).toBe('true')
    await type('Overview')
    await page.keyboard.press('Enter')
    await type('Plain ')
    await page.keyboard.press('Control+b')
    expect(await tool(page, 'Bold').getAttribute('aria-pressed')).toBe('true')
    await type('bold')
    await page.keyboard.press('Control+b')
    await type(' and ')
    await page.keyboard.press('Control+i')
    await type('italic')
    await page.keyboard.press('Control+i')
    await type(' and ')
    await tool(page, 'Inline code').click()
    await type('code')
    await tool(page, 'Inline code').click()
    await page.keyboard.press('Enter')
    await tool(page, 'Bulleted list').click()
    await type('one')
    await page.keyboard.press('Enter')
    await type('two')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Enter')
    await type('1. first')
    expect(await tool(page, 'Numbered list').getAttribute('aria-pressed')).toBe('true')
    await page.keyboard.press('Enter')
    await type('second')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Enter')
    await tool(page, 'Quote').click()
    await type('Quoted')
    await page.keyboard.press('Enter')
    await tool(page, 'Quote').click()
    await type('```const x = 1 < 2 && y')
    await page.keyboard.press('Control+Enter')
    await type('line one')
    await page.keyboard.press('Shift+Enter')
    await type('line two')
    await page.keyboard.press('Enter')

    // Links: only the schemes of spec section 5.
    await type('Docs')
    await selectBack(page, 4)
    await page.keyboard.press('Control+k')
    const dialog = page.getByRole('dialog', { name: 'Add Link' })
    await dialog.getByRole('textbox', { name: 'URL' }).waitFor()
    await submitLink(page, 'javascript:alert(1)')
    await waitText(dialog, SCHEME_ERROR)
    expect(await seriousAxeViolations(page)).toEqual([])
    await screenshotWidths(page, 'topic-form-link-dialog')
    await submitLink(page, 'data:text/html,<b>x</b>')
    await waitText(dialog, SCHEME_ERROR)
    await submitLink(page, 'https://example.com/a?b=1&c=2')
    await dialog.waitFor({ state: 'detached' })
    await editorFocused(page)
    // Inside a link, the Link button is pressed and the dialog edits that link.
    await page.keyboard.press('ArrowLeft')
    expect(await tool(page, 'Link').getAttribute('aria-pressed')).toBe('true')
    await page.keyboard.press('Control+k')
    const edit = page.getByRole('dialog', { name: 'Edit Link' })
    expect(await edit.getByRole('textbox', { name: 'URL' }).inputValue()).toBe(
      'https://example.com/a?b=1&c=2',
    )
    await edit.getByRole('button', { name: 'Remove Link' }).waitFor()
    await page.keyboard.press('Escape')
    await edit.waitFor({ state: 'detached' })
    await editorFocused(page)
    await page.keyboard.press('End')
    await type(' and mail me')
    await selectBack(page, 7)
    await tool(page, 'Link').click()
    await submitLink(page, 'mailto:someone@example.com')
    await dialog.waitFor({ state: 'detached' })
    await editorFocused(page)
    await page.keyboard.press('End')

    // Undo and redo from the keyboard (a pause starts a new undo step).
    await page.waitForTimeout(700)
    await type(' temp')
    const text = () => editor(page).textContent()
    expect(await text()).toContain('mail me temp')
    await page.keyboard.press('Control+z')
    expect(await text()).not.toContain('temp')
    await page.keyboard.press('Control+Shift+z')
    expect(await text()).toContain('mail me temp')
    await page.keyboard.press('Control+z')
    await page.keyboard.press('Control+y')
    expect(await text()).toContain('mail me temp')
    await page.keyboard.press('Control+z')
    expect(await text()).not.toContain('temp')
    await screenshotWidths(page, 'topic-form-create-filled')

    const pushed = await capturePushedTopics(page, 1500)
    await page.getByRole('button', { name: 'Create Topic' }).click()
    await page.getByRole('button', { name: 'Creating...' }).waitFor()
    await expectToast(page, 'Topic created successfully')
    await page.waitForURL((url) => url.pathname === '/')

    const expected =
      '<h2>Overview</h2><p>Plain <strong>bold</strong> and <em>italic</em> and <code>code</code></p>' +
      '<ul><li><p>one</p></li><li><p>two</p></li></ul><ol><li><p>first</p></li><li><p>second</p></li></ol>' +
      '<blockquote><p>Quoted</p></blockquote><pre><code>const x = 1 &lt; 2 &amp;&amp; y</code></pre>' +
      '<p>line one<br>line two</p>' +
      `<p><a href="https://example.com/a?b=1&amp;c=2" ${LINK}>Docs</a> and <a href="mailto:someone@example.com" ${LINK}>mail me</a></p>`
    expect(pushed).toHaveLength(1)
    const sent = pushed[0]
    expect(sent?.description).toBe(expected)
    const stored = await admin.call<{
      description: string
      status: string
      subject: string
      maxMentees: number
      seniorityRequired: string[]
      location: string
      interests: string[]
    }>('GET', `/api/topics/${sent?.id}`)
    expect(stored).toMatchObject({
      subject,
      status: 'proposed',
      maxMentees: 2,
      location: 'both',
      interests: ['API Design'],
    })
    expect(stored.seniorityRequired.sort()).toEqual(['junior', 'mid'])
    // The server's sanitiser kept the editor's output byte for byte.
    expect(stored.description).toBe(sent?.description)
    await app.expectClean()
    await app.close()
  })

  it('submits on Enter only from a text field or the button, not from option cards or the seniority control', async () => {
    const app = await openApp(browser, uniqueName('enter'), { path: '/create' })
    const { page } = app
    await page.getByRole('heading', { name: 'Create Topic', level: 1 }).waitFor()
    const subject = uniqueName('Enter key topic')
    await page.getByRole('textbox', { name: 'Subject' }).fill(subject)
    // Had the form been submitted, the missing seniority would be reported.
    const notSubmitted = async () => {
      await page.waitForTimeout(400)
      expect(await page.getByText('At least one seniority level is required').count()).toBe(0)
      expect(new URL(page.url()).pathname).toBe('/create')
    }
    await page.getByRole('radio', { name: /^2 mentees/ }).focus()
    await page.keyboard.press('Enter')
    await notSubmitted()
    await page.getByRole('radio', { name: /^Online/ }).focus()
    await page.keyboard.press('Enter')
    await notSubmitted()
    // The seniority control opens with Enter and takes a level with Enter, and that is all.
    await page.getByRole('button', { name: /^Required Seniority\b/ }).focus()
    await page.keyboard.press('Enter')
    await page.getByRole('listbox').waitFor()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    await page.getByRole('listbox').waitFor({ state: 'detached' })
    await notSubmitted()
    expect(await page.getByRole('list', { name: 'Chosen seniority levels' }).count()).toBe(1)
    // Enter in a text field submits.
    await page.getByRole('textbox', { name: 'Subject' }).focus()
    await page.keyboard.press('Enter')
    await expectToast(page, 'Topic created successfully')
    await app.expectClean()
    await app.close()
  })

  it('looks right in dark mode', async () => {
    const app = await openApp(browser, uniqueName('night'), {
      path: '/create',
      colorScheme: 'dark',
    })
    const { page } = app
    await page.getByRole('textbox', { name: 'Subject' }).fill('Pairing on a legacy codebase')
    await choose(page, 'Required Seniority', 'Senior')
    await editor(page).click()
    await tool(page, 'Heading 3').click()
    await page.keyboard.type('What we will do')
    await page.keyboard.press('Enter')
    await page.keyboard.type('Read code together and refactor ')
    await page.keyboard.press('Control+b')
    await page.keyboard.type('safely')
    expect(await seriousAxeViolations(page)).toEqual([])
    await screenshotWidths(page, 'topic-form-create-dark')
    await page.getByRole('button', { name: 'Create Topic' }).click()
    await page.getByRole('button', { name: 'Create Topic' }).waitFor({ state: 'detached' })
    await app.expectClean()
    await app.close()
  })
})

describe('create topic offline', () => {
  it('keeps the topic on this device, goes home, and sends it once back online', async () => {
    const app = await openApp(browser, uniqueName('offline'), { path: '/create' })
    const { page } = app
    const subject = uniqueName('Offline topic')
    await page.getByRole('textbox', { name: 'Subject' }).fill(subject)
    await choose(page, 'Required Seniority', 'Junior')
    await editor(page).click()
    await page.keyboard.type('Written on a train')
    // The home screen's code comes from the service worker once offline: it must be installed.
    await waitForController(page)
    await app.context.setOffline(true)
    await page.getByRole('button', { name: /^Sync status: Offline/ }).waitFor()
    await page.getByRole('button', { name: 'Create Topic' }).click()
    await expectToast(page, 'Saved on this device')
    await page.waitForURL((url) => url.pathname === '/')
    await app.context.setOffline(false)
    await waitForSynced(page)
    const mine = await admin.call<{ subject: string; description: string; status: string }[]>(
      'GET',
      '/api/topics?status=proposed',
    )
    expect(mine.find((t) => t.subject === subject)).toMatchObject({
      description: '<p>Written on a train</p>',
      status: 'proposed',
    })
    await app.expectClean()
    await app.close()
  })
})

describe('edit topic', () => {
  it('opens prefilled, cancels, saves changes, and keeps others out', async () => {
    const mentor = await ApiAs.signIn(browser, uniqueName('editor'))
    const subject = uniqueName('Testing strategy')
    const description = `<p>Hello <strong>world</strong> and <a href="https://example.org" ${LINK}>a link</a></p>`
    const topic = await mentor.createTopic({
      subject,
      description,
      maxMentees: 2,
      seniorityRequired: ['junior', 'mid'],
      location: 'both',
      interests: ['Testing'],
    })
    const app = await openApp(browser, mentor.user.username, { path: `/topics/${topic.id}/edit` })
    const { page } = app
    await page.getByRole('heading', { name: 'Edit Topic', level: 1 }).waitFor()
    expect(await page.getByRole('textbox', { name: 'Subject' }).inputValue()).toBe(subject)
    expect(await editor(page).innerHTML()).toContain('<strong>world</strong>')
    await page.getByRole('button', { name: 'Remove Junior' }).waitFor()
    await page.getByRole('button', { name: 'Remove Mid-Level' }).waitFor()
    await page.getByRole('button', { name: 'Remove Testing' }).waitFor()
    expect(await page.getByRole('radio', { name: /2 mentees/ }).getAttribute('aria-checked')).toBe(
      'true',
    )
    expect(await page.getByRole('radio', { name: 'Both' }).getAttribute('aria-checked')).toBe(
      'true',
    )
    expect(await seriousAxeViolations(page)).toEqual([])
    await screenshotWidths(page, 'topic-form-edit')

    await page.getByRole('link', { name: 'Cancel' }).click()
    await page.waitForURL((url) => url.pathname === `/topics/${topic.id}`)
    await page.goto(`/topics/${topic.id}/edit`)
    const field = page.getByRole('textbox', { name: 'Subject' })
    await field.fill(`${subject} (revised)`)
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await expectToast(page, 'Topic updated successfully')
    await page.waitForURL((url) => url.pathname === `/topics/${topic.id}`)
    const stored = await mentor.call<{ subject: string; description: string }>(
      'GET',
      `/api/topics/${topic.id}`,
    )
    expect(stored).toMatchObject({ subject: `${subject} (revised)`, description })
    await app.expectClean()
    await app.close()

    // Someone else (the topic is public once approved) is sent home.
    await admin.review(topic.id, 'approved')
    const other = await openApp(browser, uniqueName('stranger'), {
      path: `/topics/${topic.id}/edit`,
    })
    await other.page.waitForURL((url) => url.pathname === '/')
    await other.page.goto('/topics/00000000-0000-4000-8000-000000000000/edit')
    await waitText(other.page, 'Topic not found')
    await screenshot(other.page, 'topic-form-edit-not-found-desktop')
    await other.close()

    // A started topic can no longer be edited.
    await mentor.call('POST', `/api/topics/${topic.id}/start`)
    const late = await openApp(browser, mentor.user.username, { path: `/topics/${topic.id}/edit` })
    await waitText(late.page, 'This topic is started and can no longer be edited.')
    await late.close()
    await mentor.dispose()
  })
})
