import { Workbox } from 'workbox-window'

/**
 * The page's side of the service worker (pwa/src/sw.ts), registered from this
 * module (the CSP allows no inline script) in production builds only: it
 * looks for a new version every hour and whenever the app comes back into
 * view, tells the update prompt when one is waiting, and passes the worker's
 * "pull now" (sent on a push message) to whoever listens.
 *
 * @example
 * registerServiceWorker(startSettled)              // once, in main.tsx
 * const stop = onSyncPoke(() => engine.poke())
 */

/** How often an open app asks the server for a new version. */
const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000

/** none: up to date; waiting: a new version is installed and waits; active: it took over, reload to use it. */
export type UpdateState = 'none' | 'waiting' | 'active'

let workbox: Workbox | null = null
let state: UpdateState = 'none'
const stateListeners = new Set<() => void>()
const pokeListeners = new Set<() => void>()

function setState(next: UpdateState): void {
  if (next === state) return
  state = next
  for (const listener of stateListeners) listener()
}

export function getUpdateState(): UpdateState {
  return state
}

export function subscribeUpdateState(listener: () => void): () => void {
  stateListeners.add(listener)
  return () => stateListeners.delete(listener)
}

/** Calls `listener` when the service worker says something changed (a push arrived). */
export function onSyncPoke(listener: () => void): () => void {
  pokeListeners.add(listener)
  return () => pokeListeners.delete(listener)
}

/** A first visit's install waits at most this long for `firstInstallAfter`. */
const FIRST_INSTALL_WAIT_MS = 15_000

/**
 * Registers the service worker. A page it controls already (a return visit)
 * registers at once. A first visit registers once `firstInstallAfter`
 * resolves (the page's start is over: session.tsx, `startSettled`), or after
 * FIRST_INSTALL_WAIT_MS: installing precaches every file of the app, which
 * would otherwise share the device with the first sync.
 */
export function registerServiceWorker(firstInstallAfter: Promise<void> = Promise.resolve()): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
    if ((event.data as { type?: string } | null)?.type === 'sync-poke') {
      for (const listener of pokeListeners) listener()
    }
  })
  navigator.serviceWorker.startMessages()

  const wb = new Workbox('/sw.js', { scope: '/' })
  workbox = wb
  wb.addEventListener('waiting', () => setState('waiting'))
  // A new version took over (this tab's Reload, or another tab's): this page still runs
  // the old one, and only a reload changes that.
  wb.addEventListener('controlling', (event) => {
    if (event.isUpdate) setState('active')
  })
  // Offline, fetching sw.js fails (and the browser logs it): a first visit, which registers
  // only after its first sync, may be offline by then. It registers once the network is back,
  // and tries again then if the network went while it fetched.
  const register = () => {
    if (!navigator.onLine) {
      window.addEventListener('online', register, { once: true })
      return
    }
    void wb.register().catch((error: unknown) => {
      console.warn('The service worker could not be registered:', error)
      if (!navigator.onLine) window.addEventListener('online', register, { once: true })
    })
  }
  if (navigator.serviceWorker.controller) register()
  else {
    const waited = new Promise<void>((resolve) => setTimeout(resolve, FIRST_INSTALL_WAIT_MS))
    void Promise.race([firstInstallAfter, waited]).then(register)
  }

  setInterval(checkForUpdate, UPDATE_CHECK_INTERVAL_MS)
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') checkForUpdate()
  })
}

/** Asks the server whether sw.js changed; quietly does nothing offline. */
function checkForUpdate(): void {
  if (!workbox || !navigator.onLine) return
  void workbox.update().catch(() => {})
}

/**
 * Switches to the new version and reloads once it controls the page. The
 * caller makes sure no change is waiting to be sent; `quiesce` stops the
 * page's own traffic to the server first. A request the old worker is still
 * passing on holds the switch back, and in Chromium one that starts during
 * the switch can leave it (and the reload after it) hanging.
 */
export async function applyUpdate(quiesce?: () => Promise<void>): Promise<void> {
  let reloading = false
  const reload = () => {
    if (reloading) return
    reloading = true
    window.location.reload()
  }
  await quiesce?.().catch(() => {})
  if (!workbox || state === 'active') return reload()
  navigator.serviceWorker.addEventListener('controllerchange', reload, { once: true })
  // Ask the worker that waits now (not the one seen when the prompt appeared): another tab
  // may have activated it meanwhile, and then there is nothing to wait for.
  const waiting = (await navigator.serviceWorker.getRegistration())?.waiting
  if (!waiting) return reload()
  waiting.postMessage({ type: 'SKIP_WAITING' })
  // Should the new version not take over (a worker that ignores the message), the reload still
  // happens; the prompt comes back if a version still waits.
  setTimeout(reload, 5_000)
}
