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
    })
    expect(config.DATABASE_URL).toBeUndefined()
  })

  test('parses values and lower-cases admin usernames', () => {
    const config = loadConfig({ PORT: '8080', SEED: 'false', ADMIN_USERNAMES: ' Ada , grace,,' })
    expect(config.PORT).toBe(8080)
    expect(config.SEED).toBe(false)
    expect(config.ADMIN_USERNAMES).toEqual(['ada', 'grace'])
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
  ])('stops with a message naming the bad variable: %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(
      new RegExp(`^Invalid environment configuration:\\n  ${name}: `),
    )
  })
})
