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
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_SIZE: positiveInt.default(10),
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
})

export type Config = Omit<z.infer<typeof envSchema>, 'SEED'> & {
  SEED: boolean
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
  if (problems.length) throw new Error(`Invalid environment configuration:\n${problems.join('\n')}`)
  const {
    ENTRA_CLIENT_ID: clientId,
    ENTRA_CLIENT_SECRET: clientSecret,
    ENTRA_TENANT_ID: tenantId,
  } = parsed
  return {
    ...parsed,
    SEED: parsed.SEED ?? !production,
    entra: clientId && clientSecret && tenantId ? { clientId, clientSecret, tenantId } : undefined,
  }
}
