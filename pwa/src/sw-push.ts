/// <reference lib="webworker" />
/**
 * The service worker's push handlers: show the message the server sent
 * ({title, body, url, tag, notificationId}), tell open windows to pull at
 * once, open the right screen on click, and keep the subscription registered
 * when the push service replaces it.
 */

import { base64UrlToBytes } from './lib/base64url.ts'
import {
  deleteSubscription,
  getVapidPublicKey,
  saveSubscription,
} from './lib/push-subscriptions.ts'

/** What the server's push carries (shared/push.ts pushPayloadSchema). */
type Payload = { title: string; body: string; url: string; tag?: string }

/** The message open windows get on a push: pull now (register-sw.ts listens). */
const SYNC_POKE = { type: 'sync-poke' } as const

/** Firefox's event (not in TypeScript's lib yet). */
export type PushSubscriptionChangeEvent = ExtendableEvent & {
  oldSubscription: PushSubscription | null
  newSubscription: PushSubscription | null
}

function parsePayload(event: PushEvent): Payload {
  let data: Partial<Payload> = {}
  try {
    data = (event.data?.json() as Partial<Payload> | undefined) ?? {}
  } catch {
    data = { body: event.data?.text() ?? '' }
  }
  return {
    title: typeof data.title === 'string' && data.title ? data.title : 'Pairwise',
    body: typeof data.body === 'string' ? data.body : '',
    // Only paths of this site: a push can never send the user elsewhere.
    url:
      typeof data.url === 'string' && data.url.startsWith('/') && !data.url.startsWith('//')
        ? data.url
        : '/',
    ...(typeof data.tag === 'string' && data.tag ? { tag: data.tag } : {}),
  }
}

/**
 * A push: every open window pulls at once (the bell updates). The system
 * notification shows only when no window of the app is visible and focused
 * on this device: someone using the app sees the bell instead (issue 18).
 * Its tag is the topic's id, so notifications about one topic replace each
 * other, and `renotify` makes a replacement still alert.
 */
export async function handlePush(sw: ServiceWorkerGlobalScope, event: PushEvent): Promise<void> {
  const payload = parsePayload(event)
  const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true })
  for (const client of windows) client.postMessage(SYNC_POKE)
  if (windows.some(inUse)) return
  await sw.registration.showNotification(payload.title, {
    body: payload.body,
    icon: '/icon-192.png',
    badge: '/badge-96.png',
    data: { url: payload.url },
    ...(payload.tag ? { tag: payload.tag, renotify: true } : {}),
  })
}

/** A window of ours the person is looking at now. */
function inUse(client: WindowClient): boolean {
  return client.visibilityState === 'visible' && client.focused
}

/** Focuses a window of ours (showing the notification's screen), or opens one. */
export async function handleNotificationClick(
  sw: ServiceWorkerGlobalScope,
  event: NotificationEvent,
): Promise<void> {
  const path = (event.notification.data as { url?: string } | null)?.url ?? '/'
  const url = new URL(path, sw.location.origin).href
  const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true })
  const open = windows.find((client) => new URL(client.url).origin === sw.location.origin)
  if (open) {
    const focused = await open.focus()
    if (focused.url !== url) await focused.navigate(url).catch(() => null)
    return
  }
  await sw.clients.openWindow(url)
}

/** The push service replaced or expired the subscription: subscribe again and tell the server. */
export async function handleSubscriptionChange(
  sw: ServiceWorkerGlobalScope,
  event: PushSubscriptionChangeEvent,
): Promise<void> {
  let next = event.newSubscription
  if (!next) {
    next = await sw.registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: base64UrlToBytes(await getVapidPublicKey()),
    })
  }
  await saveSubscription(next)
  const old = event.oldSubscription
  if (old && old.endpoint !== next.endpoint) await deleteSubscription(old.endpoint)
}
