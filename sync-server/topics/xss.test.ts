import { ElementType, parseDocument } from 'htmlparser2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LINK_SCHEMES } from '../../shared/constants.ts'
import { isAllowedLinkUrl } from '../../shared/links.ts'
import { expectProblem, topicBody } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'
import { sanitizeDescription } from './sanitize.ts'
import { XSS_PAYLOADS } from './xss-payloads.ts'

type ChildNode = ReturnType<typeof parseDocument>['children'][number]

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
function expectSafe(payload: string, html: string): void {
  expect(
    safetyProblems(html),
    `payload "${payload}" came out unsafe as ${JSON.stringify(html)}`,
  ).toEqual([])
}

/** The text a description shows, without its markup. */
function textOf(html: string): string {
  const text = (nodes: ChildNode[]): string =>
    nodes
      .map((node) =>
        node.type === ElementType.Text ? node.data : 'children' in node ? text(node.children) : '',
      )
      .join('')
  return text(parseDocument(html).children).trim()
}

describe('the XSS payload list', () => {
  it('holds well over 100 payloads with unique names', () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThan(100)
    const names = XSS_PAYLOADS.map((p) => p.name)
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([])
  })
})

describe('expectSafe (the check itself)', () => {
  const LINK = 'target="_blank" rel="noopener noreferrer nofollow"'
  it.each([
    '<script>alert(1)</script>',
    '&lt;p&gt;<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<svg onload=alert(1)></svg>',
    '<p onclick="alert(1)">a</p>',
    '<p style="background:url(javascript:alert(1))">a</p>',
    '<!--<img src=x onerror=alert(1)>-->',
    '<![CDATA[x]]>',
    `<a href="javascript:alert(1)" ${LINK}>a</a>`,
    `<a href="JAVASCRIPT:alert(1)" ${LINK}>a</a>`,
    `<a href="jav&#x09;ascript:alert(1)" ${LINK}>a</a>`,
    `<a href="&#106;avascript:alert(1)" ${LINK}>a</a>`,
    `<a href="&#x6A&#x61vascript:alert(1)" ${LINK}>a</a>`,
    `<a href="\u200bjavascript:alert(1)" ${LINK}>a</a>`,
    `<a href="data:text/html,x" ${LINK}>a</a>`,
    `<a href="ssh://host" ${LINK}>a</a>`,
    `<a href="/relative" ${LINK}>a</a>`,
    '<a href="https://example.com">no rel</a>',
    `<a href="https://example.com" ${LINK} onclick="alert(1)">a</a>`,
    '<p>not a fixed point</p>  ',
  ])('catches %s', (html) => {
    expect(() => expectSafe('check', html)).toThrow(/payload "check"/)
  })

  it('accepts the editor’s own output', () => {
    expectSafe(
      'editor',
      `<h2>T</h2><p><strong>a</strong> &lt;script&gt; <a href="https://example.com/?a=1&amp;b=2" title="x" ${LINK}>b</a></p><ol start="3"><li><p>c<br>d</p></li></ol><hr>`,
    )
  })
})

describe('sanitizeDescription: OWASP XSS filter evasion payloads', () => {
  it.each(XSS_PAYLOADS)('neutralises $name', ({ name, html }) => {
    expectSafe(name, sanitizeDescription(html))
  })

  it.each(XSS_PAYLOADS)('neutralises $name between paragraphs', ({ name, html }) => {
    const output = sanitizeDescription(`<p>before</p>${html}<p>after</p>`)
    expectSafe(name, output)
    expect(output, name).toMatch(/^<p>before<\/p>/)
  })
})

describe('topic descriptions through the API: OWASP XSS filter evasion payloads', () => {
  let server: TestServer
  let mentor: Client

  beforeAll(async () => {
    server = await startTestServer()
    mentor = await server.signIn('xss-mentor')
  })

  afterAll(async () => {
    await server?.stop()
  })

  it.each(XSS_PAYLOADS)('stores $name harmlessly', async ({ name, html }) => {
    const created = await mentor.post('/api/topics', topicBody({ description: html }))
    if (created.status >= 400 && created.status < 500) {
      // Refusing is fine for a description with no text left after sanitising, and for
      // one that keeps a NUL character, which Postgres text cannot hold (a 400, not a 500).
      expectProblem(created, created.status)
      const sanitised = sanitizeDescription(html)
      if (!sanitised.includes('\u0000')) {
        expect(textOf(sanitised), `payload "${name}" refused with ${created.status}`).toBe('')
      }
      return
    }
    expect(created.status, `payload "${name}": ${created.text}`).toBe(201)
    const read = await mentor.get(`/api/topics/${created.body.id}`)
    expect(read.status, `payload "${name}": ${read.text}`).toBe(200)
    expect(read.body.description, `payload "${name}"`).toBe(created.body.description)
    expectSafe(name, read.body.description)
  })
})
