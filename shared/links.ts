import { LINK_SCHEMES } from './constants.ts'

/**
 * The scheme of a URL as a browser reads it: control characters and spaces
 * are ignored (so "java\tscript:" is "javascript"), case does not matter.
 * Returns null for a URL without a scheme.
 */
export function urlScheme(url: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers drop these characters from URLs
  const compact = url.replace(/[\u0000-\u0020\u007f-\u00a0]+/g, '')
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(compact)
  return match?.[1] ? match[1].toLowerCase() : null
}

/**
 * Whether a link may point at this URL (spec section 5): only the schemes
 * http, https, ftp, ftps, mailto, tel, callto, sms, cid and xmpp. The editor's
 * link button and the server's sanitiser both use this.
 *
 * @example
 * isAllowedLinkUrl('https://example.com') // true
 * isAllowedLinkUrl('javascript:alert(1)') // false
 */
export function isAllowedLinkUrl(url: string): boolean {
  const scheme = urlScheme(url)
  return scheme !== null && (LINK_SCHEMES as readonly string[]).includes(scheme)
}
