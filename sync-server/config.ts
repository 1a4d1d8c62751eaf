import { z } from 'zod'

const booleanish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

const positiveInt = z.coerce.number({ error: 'must be a number' }).int().positive()

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
  SEED: booleanish.default(true),
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
})

export type Config = z.infer<typeof envSchema>

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
  const config = result.data
  if (config.SESSION_MAX_DAYS < config.SESSION_IDLE_DAYS) {
    throw new Error(
      'Invalid environment configuration:\n  SESSION_MAX_DAYS: must be at least SESSION_IDLE_DAYS',
    )
  }
  return config
}
