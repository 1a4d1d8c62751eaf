import { z } from 'zod'

/** GET /api/push/vapid-public-key: the applicationServerKey for pushManager.subscribe(). */
export const vapidPublicKeySchema = z.object({
  /** The uncompressed P-256 public key, base64url (87 characters). */
  publicKey: z.string(),
})

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** Whether a URL names this machine: plain http is allowed there outside production. */
function isLoopbackUrl(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname) || url.hostname.endsWith('.localhost')
}

/** What the server accepts as a subscription endpoint; outside production also http on loopback. */
function pushEndpointSchema(options: { allowLoopbackHttp: boolean }) {
  return z
    .string({ error: 'endpoint must be the URL of the push service' })
    .max(2048, { error: 'endpoint must be at most 2048 characters' })
    .meta({
      format: 'uri',
      pattern: '^https://',
      examples: ['https://fcm.googleapis.com/fcm/send/dZ3kq1V0:APA91bH'],
    })
    .refine(
      (value) => {
        if (!URL.canParse(value)) return false
        const url = new URL(value)
        if (url.username || url.password) return false
        return (
          url.protocol === 'https:' ||
          (options.allowLoopbackHttp && url.protocol === 'http:' && isLoopbackUrl(url))
        )
      },
      { error: 'endpoint must be an https:// URL of a push service' },
    )
}

/** A P-256 public key as a browser gives it (from the Web Push test vectors of RFC 8291). */
const EXAMPLE_P256DH =
  'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4'

/** 9999-12-31T23:59:59.999Z in milliseconds: the latest expirationTime accepted. */
const LAST_MILLISECOND_OF_9999 = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

/**
 * POST /api/push/subscriptions: `PushSubscription.toJSON()` as a browser
 * answers it. p256dh is the device's uncompressed P-256 key (65 bytes, so 87
 * base64url characters starting with B); auth its 16-byte secret.
 */
export function pushSubscriptionSchemaFor(options: { allowLoopbackHttp: boolean }) {
  return z.strictObject({
    endpoint: pushEndpointSchema(options),
    expirationTime: z
      .number({ error: 'expirationTime must be a time in milliseconds or null' })
      .int({ error: 'expirationTime must be a time in milliseconds or null' })
      .nonnegative({ error: 'expirationTime must be a time in milliseconds or null' })
      // Dates past the year 9999 overflow both JavaScript's Date and Postgres' timestamp text.
      .max(LAST_MILLISECOND_OF_9999, { error: 'expirationTime must be before the year 10000' })
      .nullable()
      .optional(),
    keys: z.object(
      {
        p256dh: z
          .string({ error: 'keys.p256dh must be the base64url P-256 key of the subscription' })
          .regex(/^B[A-Za-z0-9_-]{86}=?$/, {
            error: 'keys.p256dh must be the base64url P-256 key of the subscription',
          })
          // A point on the P-256 curve, which a pattern cannot say: an example that is one.
          .meta({ examples: [EXAMPLE_P256DH] }),
        auth: z
          .string({ error: 'keys.auth must be the base64url 16-byte secret of the subscription' })
          .regex(/^[A-Za-z0-9_-]{22}(==)?$/, {
            error: 'keys.auth must be the base64url 16-byte secret of the subscription',
          }),
      },
      { error: 'keys must hold p256dh and auth' },
    ),
  })
}

/** The subscription schema as documented: an https endpoint. */
export const pushSubscriptionSchema = pushSubscriptionSchemaFor({ allowLoopbackHttp: false })

/** The answer to POST /api/push/subscriptions: the device as stored (never its keys). */
export const pushSubscriptionInfoSchema = z.object({
  endpoint: z.string(),
  expirationTime: z.number().int().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
})
export type PushSubscriptionInfo = z.infer<typeof pushSubscriptionInfoSchema>

/** DELETE /api/push/subscriptions: the device to stop pushing to. */
export const pushUnsubscribeSchema = z.strictObject({
  endpoint: z
    .string({ error: 'endpoint must be the URL of the subscription' })
    .min(1, { error: 'endpoint must be the URL of the subscription' })
    .max(2048, { error: 'endpoint must be at most 2048 characters' }),
})

export const pushUnsubscribedSchema = z.object({ removed: z.number().int().nonnegative() })

/**
 * What a push message carries, encrypted for the device (RFC 8291): the
 * service worker shows `title` and `body`, tags the notification with `tag`
 * (one notification per event, even if a retry delivers it twice) and opens
 * `url`, a path of this site, on click.
 */
const pushPayloadSchema = z.object({
  title: z.string(),
  body: z.string(),
  url: z.string().startsWith('/'),
  tag: z.string().optional(),
  notificationId: z.uuid(),
})
export type PushPayload = z.infer<typeof pushPayloadSchema>
