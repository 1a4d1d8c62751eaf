import type { Page, Request } from 'playwright-core'

/**
 * Steps of the topic form journeys: typing into the rich-text editor,
 * adding a link through its dialog, and catching the description the PWA
 * sends to the server (the editor's own output).
 */

/** The description editor (its contenteditable, named by the field label). */
export function editor(page: Page) {
  return page.getByRole('textbox', { name: 'Description' })
}

/** A toolbar button of the editor. */
export function tool(page: Page, name: string) {
  return page
    .getByRole('toolbar', { name: 'Formatting' })
    .getByRole('button', { name, exact: true })
}

/** Selects the last `count` characters before the cursor. */
export async function selectBack(page: Page, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await page.keyboard.press('Shift+ArrowLeft')
}

/** Types `url` into the open link dialog and submits it. */
export async function submitLink(page: Page, url: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: /Link$/ })
  await dialog.getByRole('textbox', { name: 'URL' }).fill(url)
  await dialog.getByRole('button', { name: /^(Add|Update) Link$/ }).click()
}

/** A topic write as the PWA pushes it: the mutation body (which carries the description). */
export type PushedTopic = { id: string; subject: string; description: string; [k: string]: unknown }

/**
 * Holds every push to the server for `delayMs` (so "Creating..." can be
 * seen) and records the topic bodies it carries, in order.
 */
export async function capturePushedTopics(page: Page, delayMs: number): Promise<PushedTopic[]> {
  const pushed: PushedTopic[] = []
  await page.route('**/api/sync/push', async (route) => {
    for (const body of topicBodies(route.request())) pushed.push(body)
    await new Promise((resolve) => setTimeout(resolve, delayMs))
    await route.continue()
  })
  return pushed
}

function topicBodies(request: Request): PushedTopic[] {
  const json = request.postDataJSON() as { mutations?: { path: string; body?: unknown }[] }
  return (json.mutations ?? [])
    .filter((m) => /^\/api\/topics(\/[^/]+)?$/.test(m.path))
    .map((m) => m.body as PushedTopic)
    .filter((b) => b && typeof b.description === 'string')
}

/** The element that has focus: its accessible-ish name (aria-label or text). */
export function focusedName(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const el = document.activeElement
    return el?.getAttribute('aria-label') ?? el?.textContent ?? null
  })
}

/** Waits until the editor has the focus (the link dialog hands it back once it has gone). */
export async function editorFocused(page: Page): Promise<void> {
  await page.waitForFunction(() => document.activeElement?.classList.contains('ProseMirror'))
}
