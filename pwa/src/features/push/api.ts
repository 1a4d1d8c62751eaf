import { vapidPublicKeySchema } from '../../../../shared/push.ts'

/**
 * The push device calls of /api/push. They register this browser with the
 * server, so they only make sense online and go straight to the network
 * (the sync queue has no mutations for them). Failures throw an Error whose
 * message is the sentence to show: the server's problem detail, or why there
 * was no answer.
 */

async function call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) {
  let res: Response
  try {
    res = await fetch(path, {
      method,
      credentials: 'include',
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  } catch {
    throw new Error('The server cannot be reached. Check your connection and try again.')
  }
  const answer: unknown = await res.json().catch(() => null)
  if (!res.ok) {
    const detail = (answer as { detail?: unknown } | null)?.detail
    throw new Error(
      typeof detail === 'string' && detail
        ? detail
        : `The server answered ${res.status} ${res.statusText}.`.replace(' .', '.'),
    )
  }
  return answer
}

/** The server's VAPID public key (base64url), the applicationServerKey of a subscription. */
export async function getVapidPublicKey(): Promise<string> {
  return vapidPublicKeySchema.parse(await call('GET', '/api/push/vapid-public-key')).publicKey
}

/** Registers (or re-registers) this device's subscription for the signed-in user. */
export async function saveSubscription(subscription: PushSubscription): Promise<void> {
  await call('POST', '/api/push/subscriptions', subscription.toJSON())
}

/** Stops pushes to this device. */
export async function deleteSubscription(endpoint: string): Promise<void> {
  await call('DELETE', '/api/push/subscriptions', { endpoint })
}
