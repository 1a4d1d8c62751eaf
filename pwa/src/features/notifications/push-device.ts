import { base64UrlToBytes } from '../../lib/base64url.ts'
import {
  deleteSubscription,
  getVapidPublicKey,
  saveSubscription,
} from '../../lib/push-subscriptions.ts'

/**
 * This browser's push subscription: whether it can have one, whether the
 * user blocked notifications, and turning it on and off (the browser's
 * subscription and the server's record of it together).
 */

export type PushDeviceState = 'unsupported' | 'blocked' | 'off' | 'on'

/** Push needs a service worker, the Push API and notifications (iOS: only once installed). */
function isPushSupported(): boolean {
  return (
    import.meta.env.PROD &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  )
}

async function registration(): Promise<ServiceWorkerRegistration> {
  return navigator.serviceWorker.ready
}

/**
 * The device's state now. A subscription the browser still holds is sent to
 * the server again (it may have been dropped at a sign-out), so "on" is true.
 */
export async function readPushDeviceState(): Promise<PushDeviceState> {
  if (!isPushSupported()) return 'unsupported'
  if (Notification.permission === 'denied') return 'blocked'
  const subscription = await (await registration()).pushManager.getSubscription()
  if (!subscription || Notification.permission !== 'granted') return 'off'
  if (navigator.onLine) await saveSubscription(subscription).catch(() => {})
  return 'on'
}

/** Asks for permission, subscribes and registers; answers the state it ended in. */
export async function turnPushOn(): Promise<PushDeviceState> {
  const permission = await Notification.requestPermission()
  if (permission === 'denied') return 'blocked'
  if (permission !== 'granted') return 'off'
  const publicKey = await getVapidPublicKey()
  const { pushManager } = await registration()
  let subscription = await pushManager.getSubscription()
  if (!subscription) {
    try {
      subscription = await pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: base64UrlToBytes(publicKey),
      })
    } catch (error) {
      const reason = error instanceof Error && error.message ? ` (${error.message})` : ''
      throw new Error(`This browser could not subscribe to push notifications${reason}.`)
    }
  }
  try {
    await saveSubscription(subscription)
  } catch (error) {
    // The server does not know it: do not leave a subscription nobody pushes to.
    await subscription.unsubscribe().catch(() => false)
    throw error
  }
  return 'on'
}

/** Tells the server to stop, then drops the browser's subscription. */
export async function turnPushOff(): Promise<PushDeviceState> {
  const subscription = await (await registration()).pushManager.getSubscription()
  if (subscription) {
    await deleteSubscription(subscription.endpoint)
    await subscription.unsubscribe()
  }
  return 'off'
}
