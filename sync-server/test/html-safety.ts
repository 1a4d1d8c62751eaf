import { ElementType, parseDocument } from 'htmlparser2'
import { expect } from 'vitest'
import { LINK_SCHEMES } from '../../shared/constants.ts'
import { isAllowedLinkUrl } from '../../shared/links.ts'
import { sanitizeDescription } from '../topics/sanitize.ts'

// The check the sanitiser tests share: written apart from the sanitiser's own
// options, so loosening those makes the tests fail.

export type ChildNode = ReturnType<typeof parseDocument>['children'][number]

/** The editor's subset of HTML: the only elements and attributes a description may hold. */
const ALLOWED_TAGS = new Set([
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
])
const ALLOWED_ATTRIBUTES: Record<string, readonly string[]> = {
  a: ['href', 'title', 'target', 'rel'],
  ol: ['start'],
}

/** A `<` in serialised HTML that opens an element of the subset; any other `<` is a leak. */
const ALLOWED_TAG_OPENING = new RegExp(`^</?(?:${[...ALLOWED_TAGS].join('|')})(?=[\\s/>])`)

/**
 * What a browser ignores in a URL's scheme, and more: every ASCII control
 * character and space, and the Unicode spaces and invisible characters.
 */
const IGNORED_IN_SCHEME =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers drop these characters from URLs
  /[\u0000-\u0020\u007f-\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]/g

/** The problems of one link target, already entity-decoded by the parser. */
function hrefProblems(href: string): string[] {
  const problems: string[] = []
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href.replace(IGNORED_IN_SCHEME, ''))?.[1]
  if (!scheme || !(LINK_SCHEMES as readonly string[]).includes(scheme.toLowerCase())) {
    problems.push(`href ${JSON.stringify(href)} has no allowed scheme (${LINK_SCHEMES.join(', ')})`)
  }
  if (!isAllowedLinkUrl(href)) problems.push(`href ${JSON.stringify(href)} fails isAllowedLinkUrl`)
  return problems
}

/** The problems of sanitised HTML: anything that could run script, load content or change on a second pass. */
function safetyProblems(html: string): string[] {
  const problems: string[] = []

  // Lexically, as a browser would tokenise it: every "<" opens an element of the
  // subset (text has its "<" escaped), so no script, comment or CDATA can appear.
  if (/<\s*\/?\s*script/i.test(html)) problems.push('a raw <script that could be re-parsed')
  for (const match of html.matchAll(/</g)) {
    const rest = html.slice(match.index)
    if (!ALLOWED_TAG_OPENING.test(rest)) {
      problems.push(`a raw "<" outside the subset: ${JSON.stringify(rest.slice(0, 40))}`)
    }
  }

  // As a tree: only text and elements of the subset, with their attributes only.
  const visit = (nodes: ChildNode[]) => {
    for (const node of nodes) {
      if (node.type === ElementType.Text) continue
      if (node.type !== ElementType.Tag) {
        problems.push(`a ${node.type} node: ${JSON.stringify(String(node))}`)
        if ('children' in node) visit(node.children)
        continue
      }
      const tag = node.name.toLowerCase()
      if (!ALLOWED_TAGS.has(tag)) problems.push(`element <${tag}> outside the subset`)
      for (const [name, value] of Object.entries(node.attribs)) {
        const attribute = name.toLowerCase()
        if (!(ALLOWED_ATTRIBUTES[tag] ?? []).includes(attribute)) {
          problems.push(`attribute ${attribute}=${JSON.stringify(value)} on <${tag}>`)
        }
        if (attribute === 'href') problems.push(...hrefProblems(value))
        if (attribute === 'target' && value !== '_blank') problems.push(`target ${value}`)
      }
      if (tag === 'a' && 'href' in node.attribs) {
        const rel = (node.attribs.rel ?? '').split(/\s+/)
        if (!rel.includes('noopener') || !rel.includes('noreferrer')) {
          problems.push(`link without rel="noopener noreferrer": ${JSON.stringify(node.attribs)}`)
        }
      }
      visit(node.children)
    }
  }
  visit(parseDocument(html).children)

  // A fixed point: sanitising the output again changes nothing.
  const again = sanitizeDescription(html)
  if (again !== html)
    problems.push(`not a fixed point: sanitised again it is ${JSON.stringify(again)}`)
  return problems
}

/** Asserts sanitised HTML (from `payload`) can run no script and load nothing. */
export function expectSafe(payload: string, html: string): void {
  expect(
    safetyProblems(html),
    `payload "${payload}" came out unsafe as ${JSON.stringify(html)}`,
  ).toEqual([])
}
