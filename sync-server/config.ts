import { createECDH } from 'node:crypto'
import { z } from 'zod'

const booleanish = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' }))
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

// Each check names its own problem: the number's `error` would otherwise answer
// "must be a number" for 0 or 1.5 too.
const positiveInt = z.coerce
  .number({ error: 'must be a number' })
  .int({ error: 'must be a whole number' })
  .positive({ error: 'must be a positive whole number' })

/**
 * Every environment variable the server reads, parsed once at start.
 * The README's configuration table lists the same variables.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_SIZE: positiveInt.default(10),
  /**
   * A database connection that sent something and heard nothing back for this long is given
   * up (a failover that left the old server silent); its requests answer 503. 0: never.
   */
  DATABASE_ANSWER_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must be 0 or more' })
    .default(15_000),
  DATA_DIR: z.string().min(1).default('.data'),
  /** Default: true in development and test, false in production. */
  SEED: booleanish.optional(),
  ADMIN_USERNAMES: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  SESSION_IDLE_DAYS: positiveInt.default(30),
  SESSION_MAX_DAYS: positiveInt.default(90),
  BODY_LIMIT_BYTES: positiveInt.default(256 * 1024),
  /** On SIGTERM, how long /healthz answers 503 while requests are still served, so a load balancer moves away. */
  SHUTDOWN_DRAIN_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must be 0 or more' })
    .default(3000),
  /** On SIGTERM, the longest the whole shutdown may take (drain included) before the process exits. */
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
  /** How long an e-mail waits before it goes; dropped if read in the app meanwhile (issue 18). */
  EMAIL_DELAY_MINUTES: z.coerce
    .number({ error: 'must be a number of minutes' })
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must be from 0 to 1440' })
    .max(1440, { error: 'must be from 0 to 1440' })
    .default(15),
  STATIC_DIR: z.string().min(1).default('dist'),
  /** The address users open, e.g. https://pairwise.example.com; required in production. */
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .transform((v) => v.replace(/\/+$/, ''))
    // The app is served from the root of its host: an origin, without path, query or fragment.
    .refine(
      (v) => new URL(v).origin === v,
      'must be an origin such as https://pairwise.example.com, without a path',
    )
    .optional(),
  ENTRA_CLIENT_ID: z.string().trim().min(1, 'must not be blank').optional(),
  ENTRA_CLIENT_SECRET: z.string().trim().min(1, 'must not be blank').optional(),
  ENTRA_TENANT_ID: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9.-]+$/, 'must be a tenant id (a GUID) or a domain')
    .optional(),
  /** Behind one reverse proxy: take the client address from the last X-Forwarded-For entry. */
  TRUST_PROXY: booleanish.default(false),
  /** Sign-in requests per minute from one client address. */
  AUTH_RATE_LIMIT: positiveInt.default(60),
  /** Web Push key pair (base64url, as web-push generate-vapid-keys prints); else generated once and kept in the database. */
  VAPID_PUBLIC_KEY: z
    .string()
    .trim()
    .regex(/^B[A-Za-z0-9_-]{86}$/, 'must be an uncompressed P-256 public key in base64url')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a 32-byte P-256 private key in base64url')
    .optional(),
  /** Who push services may contact about our pushes: a mailto: address or an https:// URL. */
  VAPID_SUBJECT: z
    .string()
    .trim()
    .refine(
      (v) => /^mailto:[^\s@]+@[^\s@]+$/.test(v) || /^https:\/\/[^\s/]+/.test(v),
      'must be a mailto: address or an https:// URL',
    )
    .optional(),
  /** The mail server, e.g. smtp://user:password@mail.example.com:587; without it e-mail is logged. */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  /** The sender of e-mail, e.g. Pairwise <no-reply@pairwise.example.com>. */
  MAIL_FROM: z
    .string()
    .trim()
    .regex(
      /^[^\r\n]*<?[^\s@<>]+@[^\s@<>]+>?$/,
      'must be an address such as Pairwise <no-reply@example.com>',
    )
    .optional(),
})

export type Config = Omit<
  z.infer<typeof envSchema>,
  'SEED' | 'VAPID_SUBJECT' | 'MAIL_FROM' | 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY'
> & {
  SEED: boolean
  /** The VAPID key pair from the environment, when both halves are set. */
  vapidKeys: { publicKey: string; privateKey: string } | undefined
  /** VAPID_SUBJECT, else https://<PUBLIC_URL host> or mailto:admin@localhost. */
  VAPID_SUBJECT: string
  /** MAIL_FROM, else Pairwise <no-reply@PUBLIC_URL host or localhost>. */
  MAIL_FROM: string
  /** Client id, secret and tenant of Microsoft Entra ID, when all three are set. */
  entra: { clientId: string; clientSecret: string; tenantId: string } | undefined
}

const ENTRA_VARIABLES = ['ENTRA_CLIENT_ID', 'ENTRA_CLIENT_SECRET', 'ENTRA_TENANT_ID'] as const

/** Parses the environment; on a bad value throws an error naming each variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  )
  const result = envSchema.safeParse(cleaned)
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`)
  }
  const parsed = result.data
  const problems: string[] = []
  if (parsed.SESSION_MAX_DAYS < parsed.SESSION_IDLE_DAYS) {
    problems.push('  SESSION_MAX_DAYS: must be at least SESSION_IDLE_DAYS')
  }
  if (parsed.SHUTDOWN_DRAIN_MS >= parsed.SHUTDOWN_TIMEOUT_MS) {
    // The drain must leave time to finish requests and close the database.
    problems.push('  SHUTDOWN_DRAIN_MS: must be less than SHUTDOWN_TIMEOUT_MS')
  }
  const missingEntra = ENTRA_VARIABLES.filter((name) => parsed[name] === undefined)
  const production = parsed.NODE_ENV === 'production'
  if (production || missingEntra.length < ENTRA_VARIABLES.length) {
    // Production signs in only through Entra; a partial Entra setup is a mistake anywhere.
    const why = production
      ? 'required in production (Microsoft Entra ID sign-in)'
      : 'required when the other ENTRA_ variables are set'
    for (const name of missingEntra) problems.push(`  ${name}: ${why}`)
  }
  if (production && !parsed.PUBLIC_URL) {
    problems.push('  PUBLIC_URL: required in production (the https:// address users open)')
  } else if (production && !parsed.PUBLIC_URL?.startsWith('https://')) {
    // The session cookie is Secure and __Host- prefixed: over http nobody could stay signed in.
    problems.push('  PUBLIC_URL: must be an https:// address in production')
  }
  if ((parsed.VAPID_PUBLIC_KEY === undefined) !== (parsed.VAPID_PRIVATE_KEY === undefined)) {
    const missing = parsed.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'
    problems.push(`  ${missing}: required when the other VAPID_ key is set`)
  } else if (
    parsed.VAPID_PUBLIC_KEY &&
    parsed.VAPID_PRIVATE_KEY &&
    !isKeyPair(parsed.VAPID_PUBLIC_KEY, parsed.VAPID_PRIVATE_KEY)
  ) {
    // A mismatched pair would make every push service refuse every message (403).
    problems.push('  VAPID_PUBLIC_KEY: is not the public key of VAPID_PRIVATE_KEY')
  }
  if (problems.length) throw new Error(`Invalid environment configuration:\n${problems.join('\n')}`)
  const {
    VAPID_PUBLIC_KEY: publicKey,
    VAPID_PRIVATE_KEY: privateKey,
    VAPID_SUBJECT: vapidSubject,
    MAIL_FROM: mailFrom,
    ...rest
  } = parsed
  const publicHost = parsed.PUBLIC_URL ? new URL(parsed.PUBLIC_URL).hostname : 'localhost'
  const {
    ENTRA_CLIENT_ID: clientId,
    ENTRA_CLIENT_SECRET: clientSecret,
    ENTRA_TENANT_ID: tenantId,
  } = parsed
  return {
    ...rest,
    SEED: parsed.SEED ?? !production,
    vapidKeys: publicKey && privateKey ? { publicKey, privateKey } : undefined,
    // Push services use the subject to reach whoever runs the server; Apple refuses localhost.
    VAPID_SUBJECT:
      vapidSubject ??
      (parsed.PUBLIC_URL?.startsWith('https://') ? parsed.PUBLIC_URL : 'mailto:admin@localhost'),
    MAIL_FROM: mailFrom ?? `Pairwise <no-reply@${publicHost}>`,
    entra: clientId && clientSecret && tenantId ? { clientId, clientSecret, tenantId } : undefined,
  }
}

/** Whether a base64url P-256 public key belongs to a base64url private key. */
function isKeyPair(publicKey: string, privateKey: string): boolean {
  try {
    const ecdh = createECDH('prime256v1')
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'))
    return ecdh.getPublicKey('base64url') === publicKey
  } catch {
    return false
  }
}
