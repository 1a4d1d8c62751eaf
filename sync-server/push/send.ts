import webpush from 'web-push'
import type { NotificationKind } from '../../shared/notification.ts'
import type { PushPayload } from '../../shared/push.ts'
import type { DeliveryPayload } from '../delivery/queue.ts'
import type { VapidKeys } from './vapid.ts'

/** How long a push service keeps a message for a device that is offline. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60

/** Events someone is waiting on wake the device even when it saves battery. */
const HIGH_URGENCY = new Set<NotificationKind>([
  'new_application',
  'application_accepted',
  'application_rejected',
])

/** The device a push job goes to, as push_subscriptions stores it. */
export type PushTarget = { endpoint: string; p256dh: string; auth: string }

/** What came of one push: sent, the device is gone for good, try again later, or give up. */
export type PushOutcome =
  | { result: 'sent' }
  | { result: 'gone'; status: number }
  | { result: 'retry'; error: string; retryAfterMs?: number }
  | { result: 'failed'; error: string }

/** The message the service worker shows for a notification. */
export function pushPayloadOf(notification: DeliveryPayload): PushPayload {
  return {
    title: notification.title,
    body: notification.message,
    url: notification.link?.startsWith('/') ? notification.link : '/',
    // Notifications about one topic replace each other on the device instead of stacking.
    tag: notification.topicId ?? notification.notificationId,
    notificationId: notification.notificationId,
  }
}

/**
 * Encrypts `payload` for the device (RFC 8291, aes128gcm), signs the request
 * with the VAPID key pair (RFC 8292) and posts it to the push service. The
 * Topic header (the notification id) makes a push service replace a message
 * the device has not fetched yet, should a retry send it again. Redirects are
 * not followed.
 */
export async function sendPush(
  target: PushTarget,
  payload: PushPayload,
  vapid: VapidKeys & { subject: string },
  signal: AbortSignal,
  kind: NotificationKind,
): Promise<PushOutcome> {
  let details: ReturnType<typeof webpush.generateRequestDetails>
  try {
    details = webpush.generateRequestDetails(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: vapid,
        TTL: PUSH_TTL_SECONDS,
        urgency: HIGH_URGENCY.has(kind) ? 'high' : 'normal',
        // The push service, too, replaces an undelivered message about the same topic.
        topic: (payload.tag ?? payload.notificationId).replaceAll('-', ''),
        contentEncoding: 'aes128gcm',
      },
    )
  } catch (error) {
    return { result: 'failed', error: `Could not encrypt the push: ${messageOf(error)}` }
  }
  let res: Response
  try {
    res = await fetch(details.endpoint, {
      method: details.method,
      headers: Object.fromEntries(
        Object.entries(details.headers).map(([name, value]) => [name, String(value)]),
      ),
      body: details.body ? new Uint8Array(details.body) : null,
      redirect: 'manual',
      signal,
    })
    await res.body?.cancel()
  } catch (error) {
    return { result: 'retry', error: `The push service did not answer: ${messageOf(error)}` }
  }
  return outcomeOf(res)
}

function outcomeOf(res: Response): PushOutcome {
  if (res.ok) return { result: 'sent' }
  // RFC 8030: the subscription expired or was withdrawn.
  if (res.status === 404 || res.status === 410) return { result: 'gone', status: res.status }
  const error = `The push service answered ${res.status}.`
  if (res.status === 429 || res.status >= 500) {
    const seconds = Number(res.headers.get('retry-after'))
    return Number.isFinite(seconds) && seconds > 0
      ? { result: 'retry', error, retryAfterMs: seconds * 1000 }
      : { result: 'retry', error }
  }
  // 400, 401/403 (a key the subscription was not made with), 413: trying again changes nothing.
  return { result: 'failed', error }
}

function messageOf(error: unknown): string {
  if (error instanceof Error)
    return error.cause instanceof Error ? error.cause.message : error.message
  return String(error)
}
