import { describe, expect, it } from 'vitest'
import { LINK_SCHEMES } from './constants.ts'
import { isAllowedLinkUrl, urlScheme } from './links.ts'

describe('isAllowedLinkUrl', () => {
  it.each(LINK_SCHEMES.map((s) => `${s}:something`))('accepts %s', (url) => {
    expect(isAllowedLinkUrl(url)).toBe(true)
  })

  it.each([
    'https://example.com/path?q=1',
    'HTTPS://EXAMPLE.COM',
    'mailto:mentor@example.com',
    'tel:+441234567890',
  ])('accepts the real-world link %s', (url) => {
    expect(isAllowedLinkUrl(url)).toBe(true)
  })

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    ' javascript:alert(1)',
    '\u0001javascript:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD4=',
    'file:///etc/passwd',
    '/topics/relative',
    '//evil.example/path',
    'example.com',
    '',
  ])('refuses %j', (url) => {
    expect(isAllowedLinkUrl(url)).toBe(false)
  })
})

describe('urlScheme', () => {
  it('reads the scheme as a browser does, ignoring case and control characters', () => {
    expect(urlScheme('HTTP://x')).toBe('http')
    expect(urlScheme('jav\nascript:x')).toBe('javascript')
    expect(urlScheme('no scheme here')).toBeNull()
  })
})
