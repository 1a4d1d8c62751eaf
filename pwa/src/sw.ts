/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core'
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import {
  handleNotificationClick,
  handlePush,
  handleSubscriptionChange,
  type PushSubscriptionChangeEvent,
} from './sw-push.ts'

/**
 * The service worker: the app shell (every built file, precached at install)
 * opens at any route without a network; push messages show a notification
 * and poke the open app. API answers are never cached here: /api/* always
 * goes to the network, so the data the app shows comes from IndexedDB or the
 * server, never a stale copy from this cache.
 */
declare const self: ServiceWorkerGlobalScope

// Requests to the API and the health check go straight to the network, with no
// fetch event (which would not answer them) and without starting this worker
// when it was stopped: a poke's pull on a dashboard left open does not wait
// for the worker first (issue 20). Chromium's Static Routing API; other
// browsers lack it and dispatch the fetch event as before.
type RoutingInstallEvent = ExtendableEvent & {
  addRoutes?: (rules: { condition: { urlPattern: string }; source: 'network' }[]) => Promise<void>
}
self.addEventListener('install', (event: RoutingInstallEvent) => {
  if (typeof event.addRoutes !== 'function') return
  event.waitUntil(
    event
      .addRoutes([
        { condition: { urlPattern: '/api/*' }, source: 'network' },
        { condition: { urlPattern: '/healthz' }, source: 'network' },
      ])
      // A rule this browser cannot parse: its fetch event sends the request on, as elsewhere.
      .catch(() => {}),
  )
})

precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()

// Any navigation (a deep link, a reload at /topics/…) gets the cached shell; the
// router takes it from there. The API, health check and server pages stay on the network.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api(\/|$)/, /^\/healthz$/],
  }),
)

// A new version waits until the page says its user is ready (the update prompt's Reload).
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting()
})
clientsClaim()

self.addEventListener('push', (event) => event.waitUntil(handlePush(self, event)))
self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  event.waitUntil(handleNotificationClick(self, event))
})
self.addEventListener('pushsubscriptionchange', (event) =>
  event.waitUntil(
    // Offline or signed out: the next visit to the settings registers the device again.
    handleSubscriptionChange(self, event as PushSubscriptionChangeEvent).catch(() => {}),
  ),
)
