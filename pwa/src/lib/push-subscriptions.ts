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
  // Checked by hand, not with the shared zod schema: the service worker imports this file,
  // and zod would multiply its size by five.
  const answer = (await callApi('GET', '/api/push/vapid-public-key')) as { publicKey?: unknown }
  if (typeof answer?.publicKey !== 'string' || !/^[A-Za-z0-9_-]{80,}$/.test(answer.publicKey)) {
    throw new Error('The server did not send a push key. Please try again later.')
  }
  return answer.publicKey
}

/** Registers (or re-registers) this device's subscription for the signed-in user. */
export async function saveSubscription(subscription: PushSubscription): Promise<void> {
  await callApi('POST', '/api/push/subscriptions', subscription.toJSON())
}

/** Stops pushes to this device. */
export async function deleteSubscription(endpoint: string): Promise<void> {
  await callApi('DELETE', '/api/push/subscriptions', { endpoint })
}
