import { describe, expect, test } from 'vitest'
import { loadConfig } from './config.ts'

describe('loadConfig', () => {
  test('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      NODE_ENV: 'development',
      PORT: 3000,
      DATA_DIR: '.data',
      SEED: true,
      ADMIN_USERNAMES: [],
      SESSION_IDLE_DAYS: 30,
      SESSION_MAX_DAYS: 90,
      STATIC_DIR: 'dist',
      SHUTDOWN_DRAIN_MS: 3000,
      SHUTDOWN_TIMEOUT_MS: 10_000,
      DATABASE_ANSWER_TIMEOUT_MS: 15_000,
    })
    expect(config.DATABASE_URL).toBeUndefined()
  })

  test('parses values and lower-cases admin usernames', () => {
    const config = loadConfig({ PORT: '8080', SEED: 'false', ADMIN_USERNAMES: ' Ada , grace,,' })
    expect(config.PORT).toBe(8080)
    expect(config.SEED).toBe(false)
    expect(config.ADMIN_USERNAMES).toEqual(['ada', 'grace'])
    expect(loadConfig({ DATABASE_ANSWER_TIMEOUT_MS: '0' }).DATABASE_ANSWER_TIMEOUT_MS).toBe(0)
  })

  test('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).PORT).toBe(3000)
  })

  test.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ SEED: 'maybe' }, 'SEED'],
    [{ SESSION_IDLE_DAYS: '0' }, 'SESSION_IDLE_DAYS'],
    [{ SESSION_IDLE_DAYS: '60', SESSION_MAX_DAYS: '30' }, 'SESSION_MAX_DAYS'],
    [{ SHUTDOWN_DRAIN_MS: '-1' }, 'SHUTDOWN_DRAIN_MS'],
    [{ SHUTDOWN_DRAIN_MS: '10000' }, 'SHUTDOWN_DRAIN_MS'],
    [{ SHUTDOWN_TIMEOUT_MS: '0' }, 'SHUTDOWN_TIMEOUT_MS'],
    [{ DATABASE_ANSWER_TIMEOUT_MS: '-1' }, 'DATABASE_ANSWER_TIMEOUT_MS'],
    [{ DATABASE_ANSWER_TIMEOUT_MS: '2.5' }, 'DATABASE_ANSWER_TIMEOUT_MS'],
  ])('stops with a message naming the bad variable: %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(
      new RegExp(`^Invalid environment configuration:\\n  ${name}: `),
    )
  })
})

/** What production needs besides NODE_ENV: Entra credentials and the public address. */
const PRODUCTION = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://pairwise.example.com',
  ENTRA_CLIENT_ID: '11111111-1111-4111-8111-111111111111',
  ENTRA_CLIENT_SECRET: 'secret',
  ENTRA_TENANT_ID: '22222222-2222-4222-8222-222222222222',
}
const ENTRA_NAMES = ['ENTRA_CLIENT_ID', 'ENTRA_CLIENT_SECRET', 'ENTRA_TENANT_ID'] as const

/** The message loadConfig stops with, or a failure when it does not stop. */
function refusal(env: Record<string, string | undefined>): string {
  try {
    loadConfig(env)
  } catch (error) {
    return (error as Error).message
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`)
}

/** The variables a refusal names, one a line. */
function namedIn(message: string): string[] {
  return [...message.matchAll(/^ {2}([A-Z_]+): /gm)].map((m) => m[1] ?? '')
}

describe('loadConfig in production', () => {
  test('starts with Entra credentials and PUBLIC_URL', () => {
    const config = loadConfig(PRODUCTION)
    expect(config.NODE_ENV).toBe('production')
    expect(config.entra).toEqual({
      clientId: PRODUCTION.ENTRA_CLIENT_ID,
      clientSecret: PRODUCTION.ENTRA_CLIENT_SECRET,
      tenantId: PRODUCTION.ENTRA_TENANT_ID,
    })
    expect(config.PUBLIC_URL).toBe('https://pairwise.example.com')
  })

  test('refuses to start without Entra or PUBLIC_URL, naming every missing variable', () => {
    const message = refusal({ NODE_ENV: 'production' })
    expect(message).toMatch(/^Invalid environment configuration:\n/)
    expect(namedIn(message).sort()).toEqual([...ENTRA_NAMES, 'PUBLIC_URL'].sort())
    expect(message).toMatch(/required in production/)
  })

  test.each([...ENTRA_NAMES, 'PUBLIC_URL'])(
    'refuses to start without %s alone, naming only it',
    (name) => {
      const message = refusal({ ...PRODUCTION, [name]: undefined })
      expect(namedIn(message)).toEqual([name])
    },
  )

  test('names the missing variables together with other bad values', () => {
    const message = refusal({ NODE_ENV: 'production', PORT: 'eighty', ENTRA_CLIENT_ID: 'x' })
    // A bad value is reported first; once it is fixed the missing ones are named.
    expect(namedIn(message)).toContain('PORT')
    expect(namedIn(refusal({ NODE_ENV: 'production', ENTRA_CLIENT_ID: 'x' })).sort()).toEqual(
      ['ENTRA_CLIENT_SECRET', 'ENTRA_TENANT_ID', 'PUBLIC_URL'].sort(),
    )
  })

  test('treats empty Entra variables as missing', () => {
    const message = refusal({ ...PRODUCTION, ENTRA_CLIENT_SECRET: '' })
    expect(namedIn(message)).toEqual(['ENTRA_CLIENT_SECRET'])
  })
})

describe('loadConfig: Microsoft Entra ID', () => {
  test('has no Entra sign-in in development without ENTRA_ variables', () => {
    expect(loadConfig({}).entra).toBeUndefined()
    expect(loadConfig({ NODE_ENV: 'test' }).entra).toBeUndefined()
  })

  test('gives config.entra when all three variables are set, in development too', () => {
    const config = loadConfig({
      ENTRA_CLIENT_ID: ' client ',
      ENTRA_CLIENT_SECRET: 'secret',
      ENTRA_TENANT_ID: 'contoso.onmicrosoft.com',
    })
    expect(config.NODE_ENV).toBe('development')
    expect(config.entra).toEqual({
      clientId: 'client',
      clientSecret: 'secret',
      tenantId: 'contoso.onmicrosoft.com',
    })
  })

  test.each([
    [{ ENTRA_CLIENT_ID: 'client' }, ['ENTRA_CLIENT_SECRET', 'ENTRA_TENANT_ID']],
    [{ ENTRA_CLIENT_SECRET: 'secret' }, ['ENTRA_CLIENT_ID', 'ENTRA_TENANT_ID']],
    [{ ENTRA_CLIENT_ID: 'client', ENTRA_TENANT_ID: 'contoso.com' }, ['ENTRA_CLIENT_SECRET']],
  ])('refuses a partial setup in development, naming the missing ones: %o', (env, missing) => {
    const message = refusal(env)
    expect(namedIn(message).sort()).toEqual(missing)
    expect(message).toMatch(/required when the other ENTRA_ variables are set/)
  })

  test.each(['contoso.com/../x', 'tenant id', '?x=1'])(
    'refuses an ENTRA_TENANT_ID that is not a GUID or domain: %s',
    (tenant) => {
      expect(namedIn(refusal({ ...PRODUCTION, ENTRA_TENANT_ID: tenant }))).toEqual([
        'ENTRA_TENANT_ID',
      ])
    },
  )
})

describe('loadConfig: SEED, PUBLIC_URL, AUTH_RATE_LIMIT, TRUST_PROXY', () => {
  test('SEED defaults to true in development and test, false in production', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).SEED).toBe(true)
    expect(loadConfig({ NODE_ENV: 'test' }).SEED).toBe(true)
    expect(loadConfig(PRODUCTION).SEED).toBe(false)
    expect(loadConfig({ ...PRODUCTION, SEED: 'true' }).SEED).toBe(true)
    expect(loadConfig({ NODE_ENV: 'development', SEED: 'no' }).SEED).toBe(false)
  })

  test.each([
    ['https://pairwise.example.com/', 'https://pairwise.example.com'],
    ['https://pairwise.example.com///', 'https://pairwise.example.com'],
    ['https://pairwise.example.com:8443/', 'https://pairwise.example.com:8443'],
  ])('removes the trailing slash of PUBLIC_URL %s', (value, expected) => {
    expect(loadConfig({ PUBLIC_URL: value }).PUBLIC_URL).toBe(expected)
    expect(loadConfig({ ...PRODUCTION, PUBLIC_URL: value }).PUBLIC_URL).toBe(expected)
  })

  test('accepts an http:// PUBLIC_URL in development only: production cookies are Secure', () => {
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:3000' }).PUBLIC_URL).toBe(
      'http://localhost:3000',
    )
    const message = refusal({ ...PRODUCTION, PUBLIC_URL: 'http://pairwise.example.com' })
    expect(namedIn(message)).toEqual(['PUBLIC_URL'])
    expect(message).toMatch(/PUBLIC_URL: must be an https:\/\/ address in production/)
  })

  test.each([
    'https://example.com/pairwise',
    'https://pairwise.example.com/?x=1',
    'https://pairwise.example.com/#top',
  ])('refuses a PUBLIC_URL that is more than an origin: %s', (value) => {
    const message = refusal({ PUBLIC_URL: value })
    expect(namedIn(message)).toEqual(['PUBLIC_URL'])
    expect(message).toMatch(/PUBLIC_URL: must be an origin/)
  })

  test('reads TRUST_PROXY and SEED regardless of case', () => {
    expect(loadConfig({ TRUST_PROXY: 'TRUE', SEED: ' No ' })).toMatchObject({
      TRUST_PROXY: true,
      SEED: false,
    })
  })

  test.each([
    'pairwise.example.com',
    'not a url',
    'ftp://pairwise.example.com',
    'javascript:alert(1)',
    'file:///etc/passwd',
  ])('refuses PUBLIC_URL %s', (value) => {
    const message = refusal({ PUBLIC_URL: value })
    expect(namedIn(message)).toEqual(['PUBLIC_URL'])
    expect(message).toMatch(/PUBLIC_URL: must be an http:\/\/ or https:\/\/ URL/)
  })

  test('AUTH_RATE_LIMIT defaults to 60 sign-ins a minute and parses a number', () => {
    expect(loadConfig({}).AUTH_RATE_LIMIT).toBe(60)
    expect(loadConfig({ AUTH_RATE_LIMIT: '5' }).AUTH_RATE_LIMIT).toBe(5)
    expect(loadConfig({ AUTH_RATE_LIMIT: ' 12 ' }).AUTH_RATE_LIMIT).toBe(12)
  })

  test.each([
    ['0', /positive whole number/],
    ['-3', /positive whole number/],
    ['1.5', /whole number/],
    ['many', /must be a number/],
  ])('refuses AUTH_RATE_LIMIT=%s with a message that says why', (value, why) => {
    const message = refusal({ AUTH_RATE_LIMIT: value })
    expect(namedIn(message)).toEqual(['AUTH_RATE_LIMIT'])
    expect(message).toMatch(why)
  })

  test.each([
    [undefined, false],
    ['true', true],
    ['1', true],
    ['yes', true],
    ['false', false],
    ['0', false],
    ['no', false],
  ])('TRUST_PROXY=%s is %s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY).toBe(expected)
  })

  test('refuses a TRUST_PROXY that is not a yes or no', () => {
    expect(namedIn(refusal({ TRUST_PROXY: 'maybe' }))).toEqual(['TRUST_PROXY'])
  })
})

describe('loadConfig: push and e-mail', () => {
  // A pair web-push generateVAPIDKeys() made; used only here.
  const PAIR = {
    VAPID_PUBLIC_KEY:
      'BHy_PIokMIbSYi5XhL5tbVqRMYidCi4heb8p_wPJAZwQVvKP7TVbZP8U3RTswlFvC7AqF_U3R3yNs8lqrt7FrLU',
    VAPID_PRIVATE_KEY: 'sDrBMpXCxh5sb8EBVQ0pWbLsZJbV3qk5sYWTLQUtzos',
  }

  test('without VAPID keys or SMTP_URL: keys from the database, e-mail logged, local defaults', () => {
    const config = loadConfig({})
    expect(config.vapidKeys).toBeUndefined()
    expect(config.SMTP_URL).toBeUndefined()
    expect(config.VAPID_SUBJECT).toBe('mailto:admin@localhost')
    expect(config.MAIL_FROM).toBe('Pairwise <no-reply@localhost>')
  })

  test('derives the VAPID subject and the sender from an https PUBLIC_URL', () => {
    const config = loadConfig(PRODUCTION)
    expect(config.VAPID_SUBJECT).toBe('https://pairwise.example.com')
    expect(config.MAIL_FROM).toBe('Pairwise <no-reply@pairwise.example.com>')
    // An http address is no valid subject: development keeps the mailto: default.
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:3000' }).VAPID_SUBJECT).toBe(
      'mailto:admin@localhost',
    )
  })

  test('takes a key pair, a subject, an SMTP server and a sender from the environment', () => {
    const config = loadConfig({
      ...PAIR,
      VAPID_SUBJECT: 'mailto:ops@example.com',
      SMTP_URL: 'smtp://user:secret@mail.example.com:587',
      MAIL_FROM: 'Mentoring <mentoring@example.com>',
    })
    expect(config.vapidKeys).toEqual({
      publicKey: PAIR.VAPID_PUBLIC_KEY,
      privateKey: PAIR.VAPID_PRIVATE_KEY,
    })
    expect(config.VAPID_SUBJECT).toBe('mailto:ops@example.com')
    expect(config.SMTP_URL).toBe('smtp://user:secret@mail.example.com:587')
    expect(config.MAIL_FROM).toBe('Mentoring <mentoring@example.com>')
    expect(loadConfig({ SMTP_URL: 'smtps://mail.example.com' }).SMTP_URL).toBe(
      'smtps://mail.example.com',
    )
  })

  test.each([
    [{ VAPID_PUBLIC_KEY: PAIR.VAPID_PUBLIC_KEY }, 'VAPID_PRIVATE_KEY', /required when the other/],
    [{ VAPID_PRIVATE_KEY: PAIR.VAPID_PRIVATE_KEY }, 'VAPID_PUBLIC_KEY', /required when the other/],
    [{ ...PAIR, VAPID_PUBLIC_KEY: 'not-a-key' }, 'VAPID_PUBLIC_KEY', /P-256 public key/],
    [{ ...PAIR, VAPID_PRIVATE_KEY: 'short' }, 'VAPID_PRIVATE_KEY', /private key/],
    [
      { ...PAIR, VAPID_PRIVATE_KEY: `${PAIR.VAPID_PRIVATE_KEY.slice(0, 42)}A` },
      'VAPID_PUBLIC_KEY',
      /is not the public key of VAPID_PRIVATE_KEY/,
    ],
    [{ VAPID_SUBJECT: 'http://example.com' }, 'VAPID_SUBJECT', /mailto: address or an https/],
    [{ VAPID_SUBJECT: 'admin@example.com' }, 'VAPID_SUBJECT', /mailto: address or an https/],
    [{ SMTP_URL: 'http://mail.example.com' }, 'SMTP_URL', /smtp:\/\/ or smtps:\/\//],
    [{ SMTP_URL: 'mail.example.com:25' }, 'SMTP_URL', /smtp:\/\/ or smtps:\/\//],
    [{ MAIL_FROM: 'nobody' }, 'MAIL_FROM', /must be an address/],
  ])('refuses %o naming %s', (env, name, why) => {
    const message = refusal(env)
    expect(namedIn(message)).toEqual([name])
    expect(message).toMatch(why)
  })
})
