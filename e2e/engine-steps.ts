import type { EnginePage } from './engines.ts'

// Page-side steps of the cross-engine journeys, as function source run in
// the page: they find things by role, label and text, as a person would.

/** Polls `check` (function source answering true when done) in the page until it answers true. */
export async function waitInPage(
  page: EnginePage,
  what: string,
  check: string,
  args: unknown[] = [],
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let last: unknown = null
  for (;;) {
    try {
      if (await page.run<boolean>(check, ...args)) return
    } catch (error) {
      // A navigation in progress destroys the page's context: look again.
      last = error
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}. ${last ?? ''}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** Signs in through the development sign-in, from the page (the session cookie is the browser's). */
export const SIGN_IN = `async (username) => {
  const res = await fetch('/api/auth/dev-login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId: username }),
  })
  return res.status
}`

/** The main navigation has rendered: the signed-in shell is up. */
export const SHELL_UP = `() => !!document.querySelector('nav[aria-label="Main"]')`

/** Text of the topic card whose text includes `subject` ('' when there is none yet). */
export const CARD_TEXT = `(subject) => {
  const card = [...document.querySelectorAll('[data-testid="topic-card"]')]
    .find((c) => c.textContent.includes(subject))
  return card ? card.textContent : ''
}`

/** Clicks the button named `name` (its aria-label or text); answers whether there was one. */
export const CLICK_BUTTON = `(name) => {
  const button = [...document.querySelectorAll('button')].find(
    (b) => (b.getAttribute('aria-label') || b.textContent.trim()) === name && !b.disabled,
  )
  if (button) button.click()
  return !!button
}`

/** The page shows `text` somewhere. */
export const SHOWS_TEXT = `(text) => document.body.innerText.includes(text)`

/** The service worker controls this page (the app shell is cached for offline). */
export const SERVICE_WORKER_READY = `async () => {
  if (!('serviceWorker' in navigator)) return 'unsupported'
  const registration = await navigator.serviceWorker.ready
  const worker = registration.active
  if (!worker) return 'none'
  // ready answers once a worker is active, which may still be activating.
  if (worker.state === 'activating') {
    await new Promise((resolve) => worker.addEventListener('statechange', resolve, { once: true }))
  }
  return worker.state
}`

/** Reports a stall the way the watchdog does; answers the HTTP status. */
export const REPORT_STALL = `async (engine) => {
  const res = await fetch('/api/client-events', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'indexeddb-stalled', operation: 'e2e-probe', waitedMs: 0, recovered: true, engine }),
  })
  return res.status
}`
