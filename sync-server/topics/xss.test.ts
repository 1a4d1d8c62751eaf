import { ElementType, parseDocument } from 'htmlparser2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectProblem, topicBody } from '../test/api.ts'
import { type ChildNode, expectSafe } from '../test/html-safety.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'
import { sanitizeDescription } from './sanitize.ts'
import { XSS_PAYLOADS } from './xss-payloads.ts'

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
