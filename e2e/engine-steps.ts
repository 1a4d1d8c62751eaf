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

/**
 * The app's main navigation has rendered and a return visit's snapshot of the
 * screen (decision 0050) is down: the signed-in shell is up. Every step below
 * reads the app's own elements, never the snapshot's (`#snapshot`).
 */
export const SHELL_UP = `() => !!document.querySelector('#root nav[aria-label="Main"]') && !document.getElementById('snapshot')`

/** Elements matching `selector` in `scope`, the snapshot's left out. */
const ALL = `(selector, scope = document) => [...scope.querySelectorAll(selector)].filter((e) => !e.closest('#snapshot'))`

/** Text of the topic card whose text includes `subject` ('' when there is none yet). */
export const CARD_TEXT = `(subject) => {
  const card = (${ALL})('[data-testid="topic-card"]')
    .find((c) => c.textContent.includes(subject))
  return card ? card.textContent : ''
}`

/** Clicks the button named `name` (its aria-label or text); answers whether there was one. */
export const CLICK_BUTTON = `(name) => {
  const button = (${ALL})('button').find(
    (b) => (b.getAttribute('aria-label') || b.textContent.trim()) === name && !b.disabled,
  )
  if (button) button.click()
  return !!button
}`

/** The page shows `text` somewhere. */
export const SHOWS_TEXT = `(text) => [...document.body.children].some((e) => e.id !== 'snapshot' && e.innerText.includes(text))`

/**
 * Where the page's service worker stands, without waiting: "activated" once it
 * can serve the app offline; else what it is doing ("no registration" before
 * the page registers it, after its load event; "installing" while it caches
 * the app; "redundant" when its install failed).
 */
const SERVICE_WORKER_STATE = `async () => {
  if (!('serviceWorker' in navigator)) return 'unsupported'
  const registration = await navigator.serviceWorker.getRegistration()
  if (!registration) return 'no registration'
  const worker = registration.active || registration.waiting || registration.installing
  return worker ? worker.state : 'no worker'
}`

/** How many files each of the page's caches holds ("workbox-precache-v2-…: 41"), for a stuck install. */
const CACHED_SO_FAR = `async () => {
  const names = await caches.keys()
  const counts = await Promise.all(names.map(async (n) => n + ': ' + (await (await caches.open(n)).keys()).length))
  return counts.join(', ') || 'no cache'
}`

/**
 * Waits until the page's service worker is activated. A single wait on
 * navigator.serviceWorker.ready timed out (30 s) once in WebKit under the
 * whole suite's load while the worker cached the app; this looks every 200 ms
 * for longer and says where the worker stood if it never got there.
 */
export async function waitForServiceWorker(page: EnginePage, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let state = 'not asked'
  for (;;) {
    try {
      state = await page.run<string>(SERVICE_WORKER_STATE)
    } catch (error) {
      state = `not answered: ${error instanceof Error ? error.message : String(error)}`
    }
    if (state === 'activated') return
    if (Date.now() > deadline) {
      const cached = await page.run<string>(CACHED_SO_FAR).catch((e: unknown) => String(e))
      throw new Error(
        `The service worker was not activated in ${timeoutMs / 1000} s: ${state}; cached so far: ${cached}.`,
      )
    }
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** Reports a stall the way the watchdog does; answers the HTTP status. */
export const REPORT_STALL = `async (engine) => {
  const res = await fetch('/api/client-events', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'indexeddb-stalled', operation: 'e2e-probe', waitedMs: 0, recovered: true, engine }),
  })
  return res.status
}`

/**
 * The accessible name of an element, as far as the journeys need it:
 * aria-label, else the text of what aria-labelledby points at, else its text.
 */
const NAME_OF = `(el) => {
  const label = el.getAttribute('aria-label')
  if (label) return label.trim()
  const ids = el.getAttribute('aria-labelledby')
  if (ids) {
    const text = ids.split(/\\s+/).map((id) => document.getElementById(id)?.textContent?.trim() ?? '').join(' ').trim()
    if (text) return text
  }
  return (el.textContent ?? '').trim()
}`

/**
 * Marks the enabled button (or listbox option) named `name` for a real click
 * by CSS selector, inside the element labelled `within` when given; `prefix`
 * matches names that start with `name`. Answers the selector, or '' when
 * there is no such control yet.
 */
export const MARK_BUTTON = `(name, within, prefix) => {
  const nameOf = ${NAME_OF}
  const all = ${ALL}
  const scope = within ? all('[aria-label]').find((e) => e.getAttribute('aria-label') === within) : document
  if (!scope) return ''
  const button = all('button, [role="option"]', scope).find((b) => {
    const n = nameOf(b)
    return (prefix ? n.startsWith(name) : n === name) && !b.disabled && b.getAttribute('aria-disabled') !== 'true'
  })
  if (!button) return ''
  const token = 'e2e-' + Math.random().toString(36).slice(2)
  button.setAttribute('data-e2e', token)
  return '[data-e2e="' + token + '"]'
}`

/** Marks the text field labelled `label` (its <label>, aria-labelledby or aria-label) for a real click; '' if none. */
export const MARK_FIELD = `(label) => {
  const nameOf = ${NAME_OF}
  const field = (${ALL})('input, textarea, [contenteditable="true"]').find((f) => {
    if (f.labels && [...f.labels].some((l) => l.textContent.trim() === label)) return true
    return nameOf(f) === label
  })
  if (!field) return ''
  const token = 'e2e-' + Math.random().toString(36).slice(2)
  field.setAttribute('data-e2e', token)
  return '[data-e2e="' + token + '"]'
}`

/** The text of the element labelled `label` ('' when there is none). */
export const LABELLED_TEXT = `(label) => {
  const el = (${ALL})('[aria-label]').find((e) => e.getAttribute('aria-label') === label)
  return el ? el.textContent : ''
}`

/** The sync status the bar shows ("All changes saved", "1 change waiting to sync", …), or ''. */
export const SYNC_STATUS = `() => {
  const button = (${ALL})('button[aria-label^="Sync status: "]')[0]
  return button ? button.getAttribute('aria-label').slice('Sync status: '.length) : ''
}`

/** Whether the page is drawn dark: the luminance of the body's background (or the root's) is low. */
export const DRAWN_DARK = `() => {
  const colour = [document.body, document.documentElement]
    .map((e) => getComputedStyle(e).backgroundColor)
    .find((c) => c && c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent')
  if (!colour) return false
  const [r, g, b] = colour.match(/[\\d.]+/g).map(Number)
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 64
}`
