import sanitizeHtml from 'sanitize-html'
import { LINK_SCHEMES } from '../../shared/constants.ts'
import { isAllowedLinkUrl } from '../../shared/links.ts'
import {
  RICH_TEXT_ATTRIBUTES,
  RICH_TEXT_LINK_REL,
  RICH_TEXT_LINK_TARGET,
  RICH_TEXT_TAGS,
} from '../../shared/rich-text.ts'

/**
 * The editor's subset of HTML (ProseMirror's basic schema with lists):
 * paragraphs, headings, bold, italic, code, lists, blockquote, links, line
 * breaks and rules. Links keep only the schemes of spec section 5 and always
 * open in a new tab without an opener or referrer.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: { a: [...RICH_TEXT_ATTRIBUTES.a], ol: [...RICH_TEXT_ATTRIBUTES.ol] },
  allowedSchemes: [...LINK_SCHEMES],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'title',
    'template',
    'iframe',
    'object',
    'embed',
    'svg',
    'math',
  ],
  transformTags: {
    b: 'strong',
    i: 'em',
    // A list's start number is the only attribute besides links; it stays only as a number.
    ol: (tagName, attribs) => {
      const start = attribs.start
      const kept: sanitizeHtml.Attributes = start && /^\d{1,6}$/.test(start) ? { start } : {}
      return { tagName, attribs: kept }
    },
    // A link whose URL has no allowed scheme loses the link but keeps its text.
    a: (tagName, attribs) =>
      attribs.href && isAllowedLinkUrl(attribs.href)
        ? {
            tagName,
            attribs: {
              href: attribs.href,
              ...(attribs.title ? { title: attribs.title } : {}),
              target: RICH_TEXT_LINK_TARGET,
              rel: RICH_TEXT_LINK_REL,
            },
          }
        : { tagName, attribs: {} },
  },
}

/**
 * Sanitises a topic description to the editor's subset of HTML. The output of
 * the editor passes through unchanged; anything else that could run script or
 * load content is removed.
 *
 * The result is serialised as a browser serialises the editor's DOM
 * (`<br>`, `&nbsp;`), so the editor's own output comes back byte for byte.
 *
 * @example
 * sanitizeDescription('<p onclick="x()">Hi <script>alert(1)</script></p>') // '<p>Hi </p>'
 */
export function sanitizeDescription(html: string): string {
  return (
    sanitizeHtml(html, OPTIONS)
      // Links that lost their URL above are unwrapped here, keeping their text. (Renaming
      // them in transformTags would mislabel the closing tag of the next link.)
      .replace(/<a>([\s\S]*?)<\/a>/g, '$1')
      .replace(/<(br|hr) \/>/g, '<$1>')
      .replace(/\u00a0/g, '&nbsp;')
      .trim()
  )
}
