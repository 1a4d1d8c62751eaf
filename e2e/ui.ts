import type { Locator, Page } from 'playwright-core'

/**
 * Small steps the screen journeys share: choosing in a labelled Headless UI
 * Listbox, waiting for a toast, finding a card by its heading.
 */

/** Chooses `option` in the Listbox labelled `label` (its button is named "label current-value"). */
export async function choose(scope: Page | Locator, label: string, option: string): Promise<void> {
  const page = 'page' in scope ? scope.page() : scope
  await scope.getByRole('button', { name: new RegExp(`^${label}\\b`) }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
  await page.getByRole('listbox').waitFor({ state: 'detached' })
}

/** Waits for a toast (success toasts are status, errors are alert) holding `text`. */
export async function expectToast(page: Page, text: string): Promise<void> {
  await page
    .getByRole('region', { name: /^Notifications/ })
    .getByText(text, { exact: true })
    .waitFor({ timeout: 15_000 })
}

/** The card (article) whose heading is `title`. */
export function card(scope: Page | Locator, title: string): Locator {
  return scope.getByRole('article', { name: title })
}

/** Waits until `text` shows inside `scope`. */
export function waitText(scope: Page | Locator, text: string, timeout = 15_000): Promise<void> {
  return scope.getByText(text, { exact: true }).first().waitFor({ timeout })
}

/**
 * The open dialog titled `title`, once its title shows. (Headless UI puts the
 * dialog role on a zero-size wrapper, which Playwright counts as hidden, so
 * the title is what is waited for; closed means the wrapper is gone.)
 */
export async function openedDialog(page: Page, title: string): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name: title })
  await dialog.getByRole('heading', { name: title }).waitFor()
  return dialog
}

export function dialogClosed(dialog: Locator): Promise<void> {
  return dialog.waitFor({ state: 'detached', timeout: 15_000 })
}
