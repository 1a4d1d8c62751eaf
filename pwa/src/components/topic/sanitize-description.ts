import createDOMPurify from 'dompurify'
import { isAllowedLinkUrl } from '../../../../shared/links.ts'
import {
  RICH_TEXT_ATTRIBUTES,
  RICH_TEXT_LINK_REL,
  RICH_TEXT_LINK_TARGET,
  RICH_TEXT_TAGS,
} from '../../../../shared/rich-text.ts'

/**
 * The client's second sanitising pass over a topic description, to the same
 * allow-list as the server's (shared/rich-text.ts). The server already
 * sanitised it, but the PWA does not trust what arrives in its database: a
 * bug or an old row must not become script in someone's browser.
 */

const ATTRIBUTES_OF: Record<string, readonly string[]> = RICH_TEXT_ATTRIBUTES
const ALL_ATTRIBUTES = [...new Set(Object.values(ATTRIBUTES_OF).flat())]

let purifier: ReturnType<typeof createDOMPurify> | null = null

/** A DOMPurify instance of our own, so its hooks touch no one else's sanitising. */
function getPurifier(): ReturnType<typeof createDOMPurify> {
  if (purifier) return purifier
  const instance = createDOMPurify(window)
  instance.addHook('afterSanitizeAttributes', (node) => {
    const tag = node.nodeName.toLowerCase()
    const allowed = ATTRIBUTES_OF[tag] ?? []
    for (const { name } of [...node.attributes]) {
      if (!allowed.includes(name)) node.removeAttribute(name)
    }
    if (tag === 'ol') {
      const start = node.getAttribute('start')
      if (start !== null && !/^\d{1,6}$/.test(start)) node.removeAttribute('start')
    }
    if (tag === 'a') {
      const href = node.getAttribute('href')
      if (href && isAllowedLinkUrl(href)) {
        node.setAttribute('target', RICH_TEXT_LINK_TARGET)
        node.setAttribute('rel', RICH_TEXT_LINK_REL)
      } else {
        // A link to a scheme we do not allow loses its URL: inert text, no longer a link.
        for (const name of ['href', 'target', 'rel']) node.removeAttribute(name)
      }
    }
  })
  purifier = instance
  return instance
}

/**
 * Sanitises description HTML for rendering.
 *
 * @example
 * sanitizeDescription('<p onclick="x()">Hi <a href="javascript:x()">there</a></p>') // '<p>Hi <a>there</a></p>'
 */
export function sanitizeDescription(html: string): string {
  const known = cache.get(html)
  if (known !== undefined) return known
  const safe = getPurifier().sanitize(html, {
    ALLOWED_TAGS: [...RICH_TEXT_TAGS],
    ALLOWED_ATTR: ALL_ATTRIBUTES,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
  })
  // The oldest entry goes first (a Map keeps insertion order).
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string)
  cache.set(html, safe)
  return safe
}

/**
 * The last few hundred answers, by input: a card scrolled back into view or
 * shown again by a filter is not sanitised again (a millisecond or two each on a phone).
 */
const cache = new Map<string, string>()
const CACHE_SIZE = 400
