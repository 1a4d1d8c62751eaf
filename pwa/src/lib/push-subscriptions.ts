import { vapidPublicKeySchema } from '../../../shared/push.ts'
import { callApi } from './http.ts'

/**
 * The push device calls of /api/push, used by the notification settings
 * (subscribe, unsubscribe) and by the service worker (a subscription the push
 * service replaced). They register this browser with the server, so they go
 * straight to the network: the sync queue has no mutations for them. A failure
 * throws an Error whose message is the sentence to show.
 */

/** The server's VAPID public key (base64url), the applicationServerKey of a subscription. */
export async function getVapidPublicKey(): Promise<string> {
  return vapidPublicKeySchema.parse(await callApi('GET', '/api/push/vapid-public-key')).publicKey
}

/** Registers (or re-registers) this device's subscription for the signed-in user. */
export async function saveSubscription(subscription: PushSubscription): Promise<void> {
  await callApi('POST', '/api/push/subscriptions', subscription.toJSON())
}

/** Stops pushes to this device. */
export async function deleteSubscription(endpoint: string): Promise<void> {
  await callApi('DELETE', '/api/push/subscriptions', { endpoint })
}
