/**
 * The editor's subset of HTML (ProseMirror's basic schema with lists), the
 * one allow-list for topic descriptions: the server's sanitiser keeps only
 * these tags and attributes, and the PWA sanitises to them again before it
 * renders a description. Link URLs are further limited to the schemes of
 * shared/links.ts.
 */
export const RICH_TEXT_TAGS = [
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'em',
  'code',
  'pre',
  'ul',
  'ol',
  'li',
  'blockquote',
  'a',
] as const

/** Attributes kept, per tag; every other attribute is dropped. */
export const RICH_TEXT_ATTRIBUTES = {
  a: ['href', 'title', 'target', 'rel'],
  ol: ['start'],
} as const satisfies Partial<Record<(typeof RICH_TEXT_TAGS)[number], readonly string[]>>

/** What every kept link carries: a new tab, no opener, no referrer, no endorsement. */
export const RICH_TEXT_LINK_TARGET = '_blank'
export const RICH_TEXT_LINK_REL = 'noopener noreferrer nofollow'
