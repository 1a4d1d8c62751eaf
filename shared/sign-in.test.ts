import { describe, expect, it } from 'vitest'
import { SIGN_IN_ERRORS, safeReturnPath, signInErrorMessage } from './sign-in.ts'

describe('signInErrorMessage', () => {
  it('gives the message of a known code', () => {
    expect(signInErrorMessage('cancelled')).toBe(SIGN_IN_ERRORS.cancelled)
  })

  it.each([null, undefined, '', 'toString', '__proto__', 'nope'])(
    'gives nothing for %o',
    (code) => {
      expect(signInErrorMessage(code)).toBeUndefined()
    },
  )
})

describe('safeReturnPath', () => {
  it.each(['/', '/topics', '/topics/1b9d?tab=a#x', '/profile/ada.lovelace'])('keeps %s', (path) => {
    expect(safeReturnPath(path)).toBe(path)
  })

  it.each([
    null,
    '',
    'topics',
    'https://evil.example/',
    '//evil.example',
    '/\\evil.example',
    '/topics\\..\\x',
    '/\tevil',
    'javascript:alert(1)',
    '/api/auth/logout',
    `/${'a'.repeat(1024)}`,
  ])('refuses %o', (path) => {
    expect(safeReturnPath(path)).toBeUndefined()
  })
})
