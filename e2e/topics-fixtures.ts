import type { Browser, Page } from 'playwright-core'
import { ApiAs, type TopicBody, uniqueName } from './app.ts'

/**
 * People and topics for the topic list and detail journeys: each test makes
 * its own (the e2e database is shared by every file of a run).
 */

export type Cast = { admin: ApiAs; mentor: ApiAs; dispose: () => Promise<void> }

/** The seeded admin (who approves topics) and a new mentor. */
export async function castOf(browser: Browser): Promise<Cast> {
  const admin = await ApiAs.signIn(browser, 'admin')
  const mentor = await ApiAs.signIn(browser, uniqueName('mentor'))
  return {
    admin,
    mentor,
    dispose: async () => {
      await admin.dispose()
      await mentor.dispose()
    },
  }
}

/** A topic by `cast.mentor`, approved by the admin. */
export async function approvedTopic(
  cast: Cast,
  input: Partial<TopicBody> = {},
): Promise<{ id: string; subject: string }> {
  const topic = await cast.mentor.createTopic({ subject: uniqueName('Topic'), ...input })
  await cast.admin.review(topic.id, 'approved')
  return topic
}

/** A card of the topic list, found by its subject. */
export function cardOf(page: Page, subject: string) {
  return page.getByTestId('topic-card').filter({ hasText: subject })
}

/** Chooses an option of one of the list's filter dropdowns. */
export async function chooseFilter(page: Page, label: 'Location' | 'Seniority', option: string) {
  await page.getByRole('button', { name: new RegExp(`^${label}`) }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

/** Closes the toasts on screen (so an accessibility check sees the page alone). */
export async function closeToasts(page: Page): Promise<void> {
  const toasts = page.getByRole('region', { name: /^Notifications/ }).locator('li')
  for (const toast of await toasts.all()) {
    await toast.focus()
    await page.keyboard.press('Escape')
  }
  await page.waitForFunction(
    () => document.querySelectorAll('section[aria-label^="Notifications"] li').length === 0,
  )
}

/** The number of columns of the topic grid as laid out now (its rows are grids). */
export function gridColumns(page: Page): Promise<number> {
  return page
    .getByRole('list', { name: 'Topics' })
    .evaluate((el) =>
      el.firstElementChild
        ? getComputedStyle(el.firstElementChild).gridTemplateColumns.split(' ').length
        : 0,
    )
}

/** Every attribute of the rendered descriptions that could run script or navigate to it. */
export function dangerousMarkup(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = []
    for (const root of document.querySelectorAll('.prose-pw')) {
      for (const el of root.querySelectorAll('*')) {
        for (const attr of el.attributes) {
          // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers drop these characters from URLs
          const value = attr.value.replace(/[\s\u0000-\u001f]+/g, '').toLowerCase()
          if (attr.name.startsWith('on') || /^(javascript|vbscript|data):/.test(value)) {
            found.push(`${el.tagName} ${attr.name}=${attr.value}`)
          }
        }
        if (
          !['P', 'BR', 'HR', 'STRONG', 'EM', 'CODE', 'PRE', 'UL', 'OL', 'LI', 'BLOCKQUOTE', 'A']
            .concat(['H1', 'H2', 'H3', 'H4', 'H5', 'H6'])
            .includes(el.tagName)
        ) {
          found.push(`<${el.tagName}>`)
        }
      }
    }
    return found
  })
}
