import { createPublicKey } from 'node:crypto'
import { Hono } from 'hono'
import {
  type PushSubscriptionInfo,
  pushSubscriptionInfoSchema,
  pushSubscriptionSchema,
  pushSubscriptionSchemaFor,
  pushUnsubscribedSchema,
  pushUnsubscribeSchema,
  vapidPublicKeySchema,
} from '../../shared/push.ts'
import { requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { ApiError } from '../http/errors.ts'
import { body } from '../http/input.ts'
import { route } from '../http/route.ts'
import { vapidKeys } from './vapid.ts'

/** The most devices one user receives pushes on; registering another drops the oldest. */
const MAX_SUBSCRIPTIONS_PER_USER = 20

/**
 * /api/push: the VAPID public key and the caller's push subscriptions, one
 * per device. A subscription belongs to the session that registered it, so
 * signing out of a device stops its pushes.
 */
export const pushRoutes = new Hono<AppEnv>()

const developmentSchema = pushSubscriptionSchemaFor({ allowLoopbackHttp: true })
const productionSchema = pushSubscriptionSchemaFor({ allowLoopbackHttp: false }).refine(
  (s) => isPushServiceHost(new URL(s.endpoint).hostname),
  { error: 'endpoint must be the URL of a push service', path: ['endpoint'] },
)

/**
 * The body POST /api/push/subscriptions takes: outside production a loopback
 * http endpoint too (a push service in tests), in production only https on a
 * public DNS name.
 */
export function subscriptionSchemaFor(production: boolean) {
  return production ? productionSchema : developmentSchema
}

pushRoutes.get(
  '/vapid-public-key',
  route({
    tag: 'Notifications',
    errors: [401],
    summary: 'Push: the server key',
    description:
      "The server's VAPID public key (base64url), the `applicationServerKey` for `pushManager.subscribe()`. It stays the same across restarts and instances.",
    response: { status: 200, schema: vapidPublicKeySchema, description: 'The public key' },
  }),
  async (c) => {
    requireUser(c)
    const { sql, config } = c.get('deps')
    return c.json({ publicKey: (await vapidKeys(sql, config)).publicKey })
  },
)

pushRoutes.post(
  '/subscriptions',
  route({
    tag: 'Notifications',
    replayable: false,
    errors: [401],
    summary: 'Push: register this device',
    description:
      'Takes `PushSubscription.toJSON()` and from now on sends this device a push for every notification whose preference is on. The endpoint must be https. Registering an endpoint again updates it and moves it to the caller and this session (201 for a new device, 200 for a known one); signing out of the session ends its pushes. A user may have several devices (the 20 most recently registered).',
    response: {
      status: 201,
      schema: pushSubscriptionInfoSchema,
      description: 'The device, registered',
      also: { status: 200, description: 'A known device, updated' },
    },
  }),
  // Production takes only https endpoints of public push services.
  body(
    (deps) => subscriptionSchemaFor(deps.config.NODE_ENV === 'production'),
    pushSubscriptionSchema,
  ),
  async (c) => {
    const user = requireUser(c)
    const input = await c.var.body()
    if (!isP256Point(input.keys.p256dh)) {
      throw new ApiError(400, 'keys.p256dh is not a P-256 public key.', [
        { path: 'keys.p256dh', message: 'keys.p256dh is not a P-256 public key' },
      ])
    }
    const expiration =
      input.expirationTime === undefined || input.expirationTime === null
        ? null
        : new Date(input.expirationTime)
    const db = c.get('db')
    // The endpoint names the device: registering it again (another user signed in
    // on the same browser, or fresh keys) moves it to this user and session.
    const [row] = await db<
      (Omit<PushSubscriptionInfo, 'createdAt'> & { createdAt: Date; created: boolean })[]
    >`
    INSERT INTO push_subscriptions (user_id, session_hash, endpoint, p256dh, auth, expiration_time)
    VALUES (${user.id}, ${user.sessionHash}, ${input.endpoint}, ${input.keys.p256dh},
      ${input.keys.auth}, ${expiration})
    ON CONFLICT (endpoint) DO UPDATE SET user_id = EXCLUDED.user_id,
      session_hash = EXCLUDED.session_hash, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
      expiration_time = EXCLUDED.expiration_time, updated_at = now()
    RETURNING endpoint, (extract(epoch FROM expiration_time) * 1000)::bigint AS "expirationTime",
      created_at AS "createdAt", (xmax = 0) AS created`
    if (!row) throw new Error('The push subscription was not stored.')
    await db`
    DELETE FROM push_subscriptions WHERE id IN (
      SELECT id FROM push_subscriptions WHERE user_id = ${user.id}
      ORDER BY updated_at DESC, created_at DESC OFFSET ${MAX_SUBSCRIPTIONS_PER_USER})`
    const info: PushSubscriptionInfo = {
      endpoint: row.endpoint,
      expirationTime: row.expirationTime === null ? null : Number(row.expirationTime),
      createdAt: row.createdAt.toISOString(),
    }
    return c.json(info, row.created ? 201 : 200)
  },
)

/** Stops pushes to one of the caller's devices; another user's endpoint is left alone. */
pushRoutes.delete(
  '/subscriptions',
  route({
    tag: 'Notifications',
    replayable: false,
    errors: [401],
    summary: 'Push: unregister a device',
    description:
      "Stops pushes to the caller's device with this endpoint. `removed` is 0 when the caller has no such device (another user's endpoint is left alone).",
    response: { status: 200, schema: pushUnsubscribedSchema, description: 'How many went' },
  }),
  body(pushUnsubscribeSchema),
  async (c) => {
    const user = requireUser(c)
    const { endpoint } = await c.var.body()
    const removed = await c.get('db')`
    DELETE FROM push_subscriptions WHERE endpoint = ${endpoint} AND user_id = ${user.id}`
    return c.json({ removed: removed.count })
  },
)

/** Whether a base64url key is a point on P-256 (web-push could not encrypt for anything else). */
function isP256Point(p256dh: string): boolean {
  const point = Buffer.from(p256dh, 'base64url')
  if (point.length !== 65 || point[0] !== 4) return false
  try {
    createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    })
    return true
  } catch {
    return false
  }
}

/**
 * In production the server posts only to push services on public DNS names:
 * never an IP address or a local name, so a subscription cannot point the
 * worker at the internal network.
 */
function isPushServiceHost(hostname: string): boolean {
  const host = hostname.toLowerCase()
  if (host.startsWith('[') || /^[\d.]+$/.test(host) || !host.includes('.')) return false
  return !/\.(localhost|local|internal|lan|home|corp|intranet)\.?$/.test(host)
}
