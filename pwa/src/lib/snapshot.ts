/**
 * The last look of a screen, for a return visit (decision 0050). When a
 * screen has settled with its data, at the top of the page, a copy of its
 * HTML is kept in localStorage per address; on the next start public/boot.js
 * puts that copy up before any module has loaded, and `releaseSnapshot`
 * takes it down as soon as the app's own screen has its data. The copy takes
 * no input: it is only ever a picture of this person's own screen.
 *
 * The stored format is read by public/boot.js: keep both in step.
 */

/** Where a snapshot of `path` (pathname + search) is kept. */
export const SNAPSHOT_PREFIX = 'pairwise.snapshot:'
/** The addresses that have one, most recent first. */
export const SNAPSHOT_INDEX = 'pairwise.snapshots'
/** At most this many addresses keep one. */
export const MAX_SNAPSHOTS = 6
/** A screen bigger than this is not kept (a copy is read synchronously at every start). */
export const MAX_SNAPSHOT_CHARS = 400_000
/** How long the copy may stand when the app's screen does not come (an error, a slow open). */
const MAX_SHOWN_MS = 2_000
/** A screen is copied once nothing has changed in it for this long. */
const SETTLE_MS = 1_000

export type Snapshot = {
  v: 1
  /** Whose screen it is: shown only while the same person is the one last signed in here. */
  user: string
  /** window.innerWidth: the list's rows are placed in pixels for one width. */
  width: number
  /** The stylesheet's address: a new version of the app draws its own screens. */
  css: string | null
  /** When it was taken (ms since the epoch); older than a week is not shown. */
  at: number
  title: string
  html: string
}

/** What snapshots need of localStorage; a fake in tests. */
export type SnapshotStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

function readIndex(storage: SnapshotStorage): string[] {
  try {
    const list = JSON.parse(storage.getItem(SNAPSHOT_INDEX) ?? '[]') as unknown
    return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : []
  } catch {
    return []
  }
}

/**
 * Keeps `shot` for `path`, the most recent of at most MAX_SNAPSHOTS. When
 * storage is full, the others make room; a copy that still does not fit is
 * not kept. Answers whether it was kept.
 */
export function saveSnapshot(storage: SnapshotStorage, path: string, shot: Snapshot): boolean {
  if (shot.html.length > MAX_SNAPSHOT_CHARS) return false
  const paths = [path, ...readIndex(storage).filter((p) => p !== path)]
  for (const old of paths.splice(MAX_SNAPSHOTS)) storage.removeItem(SNAPSHOT_PREFIX + old)
  const value = JSON.stringify(shot)
  try {
    storage.setItem(SNAPSHOT_PREFIX + path, value)
  } catch {
    // Full (the quota is shared with everything else kept here): only this one, then.
    for (const old of paths.splice(1)) storage.removeItem(SNAPSHOT_PREFIX + old)
    try {
      storage.setItem(SNAPSHOT_PREFIX + path, value)
    } catch {
      storage.removeItem(SNAPSHOT_PREFIX + path)
      storage.setItem(SNAPSHOT_INDEX, JSON.stringify([]))
      return false
    }
  }
  storage.setItem(SNAPSHOT_INDEX, JSON.stringify(paths))
  return true
}

/** Removes every snapshot (signed out, or someone else signed in). */
export function forgetSnapshots(storage: SnapshotStorage): void {
  for (const path of readIndex(storage)) storage.removeItem(SNAPSHOT_PREFIX + path)
  storage.removeItem(SNAPSHOT_INDEX)
}

/** Forgets the snapshots of this browser's localStorage, if it has one. */
export function forgetStoredSnapshots(): void {
  try {
    forgetSnapshots(localStorage)
  } catch {
    // No storage (a private mode that refuses it): nothing was kept either.
  }
}

/** A screen still waiting for its code or data shows the one loading state (PageSpinner). */
function isLoading(root: Element): boolean {
  return root.querySelector('[data-page-loading]') !== null
}

/**
 * Whether the app's own screen has come: something drawn, nothing loading.
 * The sign-in screen and the error screens count: they take the copy down.
 */
function appScreenReady(root: Element): boolean {
  return root.firstElementChild !== null && !isLoading(root)
}

/**
 * The screen's HTML as a copy to keep, or null when this moment is not one
 * to keep: still loading, scrolled (the list draws only the rows near the
 * viewport, and a start is at the top), a menu open, or a form on the screen
 * (its typed values are not in the HTML). Style attributes are moved to
 * `data-snapshot-style` (the CSP refuses them in markup; boot.js sets them
 * through the CSSOM), ids are dropped (they stay the app's own), what is
 * marked `data-no-snapshot` (toasts, the update prompt) is left out, and a
 * search field keeps its words.
 */
function screenCopy(root: Element, scrollY: number): string | null {
  if (!appScreenReady(root) || scrollY !== 0) return null
  // A dialog is open (its library makes the app's root inert): not a settled screen.
  if (root.closest('[inert]') || document.querySelector('[role="dialog"]')) return null
  if (root.querySelector('form, [aria-expanded="true"], dialog[open]')) return null
  const copy = root.cloneNode(true) as Element
  // Toasts and the update prompt belong to the moment, not to the screen.
  for (const el of copy.querySelectorAll('[data-no-snapshot]')) el.remove()
  const fields = root.querySelectorAll<HTMLInputElement>('input[type="search"]')
  copy.querySelectorAll('input[type="search"]').forEach((field, i) => {
    const value = fields[i]?.value
    if (value) field.setAttribute('value', value)
  })
  for (const el of copy.querySelectorAll('[style]')) {
    el.setAttribute('data-snapshot-style', el.getAttribute('style') ?? '')
    el.removeAttribute('style')
  }
  // While the copy is up, an id is the app's own: getElementById and labels find the live one.
  for (const el of copy.querySelectorAll('[id]')) el.removeAttribute('id')
  return copy.innerHTML
}

/**
 * Takes down the copy boot.js put up, once the app's screen is ready (or
 * after MAX_SHOWN_MS whatever it shows). Call before the app first renders.
 */
export function releaseSnapshot(): void {
  const cover = document.getElementById('snapshot')
  const root = document.getElementById('root')
  if (!cover || !root) return
  const done = () => {
    observer.disconnect()
    clearTimeout(timer)
    cover.remove()
  }
  const observer = new MutationObserver(() => {
    if (appScreenReady(root)) done()
  })
  observer.observe(root, { childList: true, subtree: true })
  const timer = setTimeout(done, MAX_SHOWN_MS)
}

/**
 * Keeps a copy of the screen for `userId` whenever it has settled (nothing
 * changed for a second, the page idle and visible) and as the page is hidden,
 * while `signedIn()` says that person is still the one signed in here (a
 * sign-out forgets the copies, then leaves the page: nothing is kept after).
 * Answers the function that stops it.
 */
export function keepSnapshots(userId: string, signedIn: () => boolean): () => void {
  const root = document.getElementById('root')
  if (!root) return () => {}
  let timer: ReturnType<typeof setTimeout> | undefined
  let idle: number | undefined
  const take = () => {
    idle = undefined
    if (document.getElementById('snapshot') || !signedIn()) return
    // A search's address changes as the words are typed (replaced, not a step of history):
    // copies of them would push the screens a person comes back to (at most MAX_SNAPSHOTS)
    // out of storage, each a write of up to MAX_SNAPSHOT_CHARS while typing.
    if (new URLSearchParams(window.location.search).has('q')) return
    const html = screenCopy(root, window.scrollY)
    if (html === null) return
    const sheet = document.querySelector('link[rel="stylesheet"]')
    try {
      saveSnapshot(localStorage, window.location.pathname + window.location.search, {
        v: 1,
        user: userId,
        width: window.innerWidth,
        css: sheet ? sheet.getAttribute('href') : null,
        at: Date.now(),
        title: document.title,
        html,
      })
    } catch {
      // No storage: the next start draws from IndexedDB, as without a copy.
    }
  }
  const settle = () => {
    clearTimeout(timer)
    timer = setTimeout(() => {
      if (document.visibilityState !== 'visible') return
      if (typeof requestIdleCallback === 'function') {
        if (idle === undefined) idle = requestIdleCallback(take, { timeout: 2_000 })
      } else take()
    }, SETTLE_MS)
  }
  const hidden = () => {
    if (document.visibilityState === 'hidden') take()
  }
  const observer = new MutationObserver(settle)
  observer.observe(root, { childList: true, subtree: true, characterData: true })
  document.addEventListener('visibilitychange', hidden)
  settle()
  return () => {
    observer.disconnect()
    clearTimeout(timer)
    if (idle !== undefined && typeof cancelIdleCallback === 'function') cancelIdleCallback(idle)
    document.removeEventListener('visibilitychange', hidden)
  }
}
