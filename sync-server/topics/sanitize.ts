import sanitizeHtml from 'sanitize-html'
import { LINK_SCHEMES } from '../../shared/constants.ts'

/**
 * The editor's subset of HTML (ProseMirror's basic schema with lists):
 * paragraphs, headings, bold, italic, code, lists, blockquote, links, line
 * breaks and rules. Links keep only the schemes of spec section 5 and always
 * open in a new tab without an opener or referrer.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
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
  ],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'], ol: ['start'] },
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
    a: (tagName, attribs) => ({
      tagName,
      attribs: {
        ...(attribs.href ? { href: attribs.href } : {}),
        ...(attribs.title ? { title: attribs.title } : {}),
        target: '_blank',
        rel: 'noopener noreferrer nofollow',
      },
    }),
  },
  exclusiveFilter: (frame) => frame.tag === 'a' && !frame.attribs.href && !frame.text.trim(),
}

/**
 * Sanitises a topic description to the editor's subset of HTML. The output of
 * the editor passes through unchanged; anything else that could run script or
 * load content is removed.
 *
 * @example
 * sanitizeDescription('<p onclick="x()">Hi <script>alert(1)</script></p>') // '<p>Hi </p>'
 */
export function sanitizeDescription(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim()
}
