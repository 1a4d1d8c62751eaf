import { type Browser, type BrowserContext, type Page, request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { LINK_SCHEMES } from '../shared/constants.ts'
import { XSS_PAYLOADS } from '../sync-server/topics/xss-payloads.ts'
import {
  baseUrl,
  cspViolations,
  launchBrowser,
  openPage,
  recordCspViolations,
  screenshot,
  signIn,
} from './browser.ts'

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

const VIEWPORTS = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 800 },
] as const

/** The value of one directive of a Content-Security-Policy header, e.g. "'self'". */
function directive(policy: string, name: string): string | undefined {
  for (const part of policy.split(';')) {
    const [key, ...values] = part.trim().split(/\s+/)
    if (key?.toLowerCase() === name) return values.join(' ')
  }
  return undefined
}

describe('the built PWA under its Content-Security-Policy', () => {
  for (const viewport of VIEWPORTS) {
    for (const path of ['/', '/topics/abc']) {
      test(`${path} at ${viewport.width}px loads, runs its script, and breaks no CSP rule`, async () => {
        const { context, page, consoleErrors, pageErrors, cspViolations, close } = await openPage(
          browser,
          viewport,
        )
        try {
          const user = await signIn(context, 'e2e-viewer')
          const response = await page.goto(path)
          expect(response?.status()).toBe(200)

          const policy = response?.headers()['content-security-policy'] ?? ''
          expect(policy, 'Content-Security-Policy header').not.toBe('')
          const scriptSrc = directive(policy, 'script-src')
          expect(scriptSrc).toBe("'self'")
          expect(scriptSrc).not.toContain("'unsafe-inline'")
          expect(policy).toContain("script-src 'self'")
          expect(directive(policy, 'frame-ancestors')).toBe("'none'")

          // The app's script ran: signed in through the context's cookie jar, the bar names the user.
          await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 20_000 })
          await page
            .getByRole('button', { name: new RegExp(user.username) })
            .first()
            .waitFor()
          // The built stylesheet loaded and applies (CSP allows 'self' styles).
          const styleRules = await page.evaluate(() =>
            [...document.styleSheets].reduce((n, sheet) => n + sheet.cssRules.length, 0),
          )
          expect(styleRules).toBeGreaterThan(0)

          await screenshot(page, `csp-${viewport.name}-${path === '/' ? 'home' : 'deep-route'}`)
          expect(await cspViolations()).toEqual([])
          expect(pageErrors.map(String)).toEqual([])
          expect(consoleErrors).toEqual([])
        } finally {
          await close()
        }
      })
    }
  }

  test('/api/docs renders with its nonce-styled stylesheet and breaks no CSP rule', async () => {
    const { page, consoleErrors, pageErrors, cspViolations, close } = await openPage(browser, {
      width: 1280,
      height: 800,
    })
    try {
      const response = await page.goto('/api/docs')
      expect(response?.status(), await response?.text()).toBe(200)
      expect(response?.headers()['content-security-policy']).toMatch(/style-src [^;]*'nonce-/)
      expect(await page.textContent('h1')).toBe('Pairwise API reference')
      const body = await page.evaluate(() => {
        const style = getComputedStyle(document.body)
        return { fontFamily: style.fontFamily, background: style.backgroundColor }
      })
      // The page's <style> sets body{font:16px/1.5 system-ui,sans-serif;background:#f8fafc}.
      expect(body.fontFamily).toContain('system-ui')
      expect(body.background).toBe('rgb(248, 250, 252)')
      await screenshot(page, 'api-docs')
      expect(await cspViolations()).toEqual([])
      expect(pageErrors.map(String)).toEqual([])
      expect(consoleErrors).toEqual([])
    } finally {
      await close()
    }
  })

  test('an injected inline event handler is blocked and reported', async () => {
    const { page, cspViolations, close } = await openPage(browser, { width: 1280, height: 800 })
    try {
      await page.goto('/')
      await page.evaluate(() => {
        const div = document.createElement('div')
        div.innerHTML = '<img src="x" onerror="window.__xss=1">'
        document.body.append(div)
      })
      await expect
        .poll(async () => (await cspViolations()).map((v) => v.effectiveDirective))
        .toContain('script-src-attr')
      await page.waitForTimeout(500)
      expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined()
    } finally {
      await close()
    }
  })
})

/** A payload as the server stored it. */
type Stored = { name: string; description: string }

/** What a page did while rendering descriptions and being poked at. */
type Findings = {
  /** Calls of the alert/confirm/prompt/print sentinels. */
  fired: string[]
  /** Dialogs the browser opened anyway. */
  dialogs: string[]
  /** Rendered links whose URL has a scheme that is not allowed (spec section 5). */
  badLinks: string[]
  /** How many links have each scheme ("invalid": a URL the browser cannot follow at all). */
  schemes: Record<string, number>
  /** Requests the rendered markup made (a description must load nothing). */
  requests: string[]
  pageErrors: string[]
  /** Pages (tabs) opened, and whether the page itself navigated away. */
  popups: string[]
  navigated: boolean
  rendered: number
  elements: number
  /** Elements hovered with the real mouse, and the hovers that failed. */
  hovered: number
  hoverFailures: string[]
}

/** At most this many links, and about as many other elements, get a real mouse hover. */
const HOVER_SAMPLE = 40

const SENTINEL_SCRIPT = () => {
  const w = window as unknown as Record<string, unknown> & { __fired: string[] }
  w.__fired = []
  for (const name of ['alert', 'confirm', 'prompt', 'print']) {
    w[name] = (message?: unknown) => {
      w.__fired.push(`${name}(${String(message)})`)
    }
  }
  w.__sentinels = true
}

/**
 * A context that records what descriptions rendered in it do: sentinels for
 * alert and friends, dialogs, popups, and every request (requests that leave
 * the app's origin are aborted).
 */
async function watchContext(context: BrowserContext, appOrigin?: string) {
  await context.addInitScript(SENTINEL_SCRIPT)
  await recordCspViolations(context)
  await context.route('**/*', (route) =>
    appOrigin && route.request().url().startsWith(appOrigin)
      ? route.continue()
      : route.abort('blockedbyclient'),
  )
}

/** What a page does from now on: dialogs (dismissed), requests, popups (closed), errors. */
type PageWatch = { dialogs: string[]; requests: string[]; popups: string[]; pageErrors: string[] }

function watchPage(page: Page, ignoredUrls: string[] = []): PageWatch {
  const watch: PageWatch = { dialogs: [], requests: [], popups: [], pageErrors: [] }
  page.on('dialog', (dialog) => {
    watch.dialogs.push(`${dialog.type()}: ${dialog.message()}`)
    void dialog.dismiss().catch(() => {})
  })
  page.on('request', (req) => {
    if (!ignoredUrls.includes(req.url())) watch.requests.push(req.url())
  })
  page.on('popup', (popup) => {
    watch.popups.push(popup.url())
    void popup.close()
  })
  page.on('pageerror', (error) => {
    watch.pageErrors.push(String(error))
  })
  return watch
}

/**
 * Hovers, focuses and clicks every element in `.payload` containers (events
 * dispatched in the page, plus real mouse hovers and keyboard focus), waits,
 * and reports what happened. Clicks on links with an allowed scheme, or with a
 * URL the browser cannot parse, are cancelled (they could only leave the page);
 * links with any other scheme are followed, so that javascript: would run.
 */
async function probe(page: Page, watch: PageWatch): Promise<Findings> {
  const startUrl = page.url()

  const elements = await page.evaluate(
    (schemes) => {
      const allowed = new Set(schemes.map((s) => `${s}:`))
      document.addEventListener(
        'click',
        (e) => {
          const link = (e.target as Element | null)?.closest?.('a')
          if (link && (allowed.has(link.protocol) || link.protocol === ':')) e.preventDefault()
        },
        true,
      )
      const all = [...document.querySelectorAll<HTMLElement>('.payload, .payload *')]
      const mouse = ['mouseover', 'mouseenter', 'mousemove', 'mousedown', 'mouseup', 'click']
      const more = ['dblclick', 'contextmenu', 'mouseout', 'mouseleave', 'wheel']
      for (const el of all) {
        for (const type of [...mouse, ...more])
          el.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true }))
        el.focus?.()
        for (const type of ['focus', 'focusin', 'blur', 'focusout'])
          el.dispatchEvent(new FocusEvent(type, { bubbles: true }))
        for (const type of ['keydown', 'keypress', 'keyup'])
          el.dispatchEvent(new KeyboardEvent(type, { bubbles: true, key: 'a' }))
        for (const type of [
          'input',
          'change',
          'select',
          'copy',
          'paste',
          'scroll',
          'load',
          'error',
        ])
          el.dispatchEvent(new Event(type, { bubbles: true }))
      }
      return all.length
    },
    LINK_SCHEMES as readonly string[],
  )

  // Real input: the mouse over a sample of rendered elements (every link, and an even spread
  // of the rest, as hovering takes a while each), then Tab through the page.
  const sampled = await page.evaluate((limit) => {
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect()
      return r.width > 0 && r.height > 0
    }
    const links = [...document.querySelectorAll('.payload a')].filter(visible)
    const others = [...document.querySelectorAll('.payload > *')].filter(
      (el) => visible(el) && !links.includes(el),
    )
    const step = Math.max(1, Math.ceil(others.length / limit))
    const sample = [...links.slice(0, limit), ...others.filter((_, i) => i % step === 0)]
    for (const el of sample) el.setAttribute('data-probe', '')
    return sample.length
  }, HOVER_SAMPLE)
  const hoverFailures: string[] = []
  const targets = page.locator('[data-probe]')
  await page.bringToFront()
  for (let i = 0; i < sampled; i++) {
    await targets
      .nth(i)
      .hover({ timeout: 2_000 })
      .catch((e: Error) => hoverFailures.push(e.message.split('\n')[0] ?? ''))
  }
  for (let i = 0; i < 20; i++) await page.keyboard.press('Tab')
  await page.waitForTimeout(500)

  const state = await page.evaluate(() => {
    const w = window as unknown as { __fired?: string[]; __sentinels?: boolean }
    return {
      fired: w.__fired ?? ['(sentinels missing)'],
      sentinels: w.__sentinels === true && typeof w.__fired !== 'undefined',
      // An href the browser cannot parse has protocol ":" and goes nowhere.
      links: [...document.querySelectorAll('a[href]')].map((a) => ({
        scheme:
          (a as HTMLAnchorElement).protocol === ':' ? 'invalid' : (a as HTMLAnchorElement).protocol,
        href: a.getAttribute('href') ?? '',
      })),
      rendered: document.querySelectorAll('.payload').length,
    }
  })
  expect(state.sentinels, 'the alert sentinels are in place').toBe(true)
  const allowed = new Set([...LINK_SCHEMES.map((s) => `${s}:`), 'invalid'])
  const schemes: Record<string, number> = {}
  for (const { scheme } of state.links) schemes[scheme] = (schemes[scheme] ?? 0) + 1
  return {
    fired: state.fired,
    dialogs: watch.dialogs,
    badLinks: state.links.filter((l) => !allowed.has(l.scheme)).map((l) => l.href),
    schemes,
    requests: watch.requests,
    pageErrors: watch.pageErrors,
    popups: watch.popups,
    navigated: page.url() !== startUrl,
    rendered: state.rendered,
    elements,
    hovered: sampled - hoverFailures.length,
    hoverFailures,
  }
}

function expectInert(findings: Findings, label: string) {
  expect(findings.fired, `${label}: alert sentinels`).toEqual([])
  expect(findings.dialogs, `${label}: dialogs`).toEqual([])
  expect(findings.badLinks, `${label}: link schemes`).toEqual([])
  expect(findings.requests, `${label}: requests made by descriptions`).toEqual([])
  expect(findings.pageErrors, `${label}: page errors`).toEqual([])
  expect(findings.popups, `${label}: popups`).toEqual([])
  expect(findings.navigated, `${label}: navigated away`).toBe(false)
  expect(findings.hoverFailures, `${label}: real hovers`).toEqual([])
}

/** A standalone page holding each HTML fragment in a `.payload` container. */
function documentOf(fragments: string[]): string {
  const body = fragments.map((html, i) => `<div class="payload" data-i="${i}">${html}</div>`)
  return `<!doctype html><html><head><title>payloads</title></head><body>${body.join('\n')}</body></html>`
}

/** Renders fragments with no CSP at all (about:blank + setContent) in a fresh context. */
async function renderWithoutCsp(fragments: string[]): Promise<Findings> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  try {
    await watchContext(context)
    const page = await context.newPage()
    const watch = watchPage(page)
    await page.setContent(documentOf(fragments))
    return await probe(page, watch)
  } finally {
    await context.close()
  }
}

describe('topic descriptions made of XSS payloads', () => {
  const stored: Stored[] = []
  const refused: string[] = []

  beforeAll(async () => {
    const api = await request.newContext({ baseURL: baseUrl() })
    try {
      const login = await api.post('/api/auth/dev-login', { data: { userId: 'e2e-xss-mentor' } })
      expect(login.status(), await login.text()).toBe(200)
      let next = 0
      const worker = async () => {
        while (next < XSS_PAYLOADS.length) {
          const i = next++
          const payload = XSS_PAYLOADS[i] as (typeof XSS_PAYLOADS)[number]
          const res = await api.post('/api/topics', {
            data: {
              subject: `XSS payload ${i + 1}`,
              description: payload.html,
              maxMentees: 2,
              seniorityRequired: ['junior'],
            },
          })
          if (res.status() >= 400 && res.status() < 500) {
            refused.push(`${payload.name}: ${res.status()}`)
            continue
          }
          expect(res.status(), `${payload.name}: ${await res.text()}`).toBe(201)
          const { id } = (await res.json()) as { id: string }
          const read = await api.get(`/api/topics/${id}`)
          expect(read.status(), await read.text()).toBe(200)
          const topic = (await read.json()) as { description: string }
          stored[i] = { name: payload.name, description: topic.description }
        }
      }
      // One request at a time: the embedded database (PGlite behind pglite-socket) fails
      // concurrent requests ("portal does not exist"), and a person creates topics one by one.
      await worker()
    } finally {
      await api.dispose()
    }
    stored.splice(0, stored.length, ...stored.filter(Boolean))
    console.log(
      `[e2e] XSS payloads: ${XSS_PAYLOADS.length} in the list, ${stored.length} stored ` +
        `(${stored.filter((s) => s.description === '').length} of them empty after ` +
        `sanitising), ${refused.length} refused${refused.length ? `: ${refused.join('; ')}` : ''}`,
    )
  }, 180_000)

  test('every payload was stored or refused', () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThan(100)
    expect(stored.length + refused.length).toBe(XSS_PAYLOADS.length)
    expect(stored.length).toBeGreaterThan(0)
  })

  test('the stored descriptions are inert on the app origin, under the CSP', async () => {
    const context = await browser.newContext({
      baseURL: baseUrl(),
      viewport: { width: 1280, height: 800 },
    })
    try {
      await watchContext(context, baseUrl())
      await signIn(context, 'e2e-xss-reader')
      const page = await context.newPage()
      // A document of the app's origin under the app's CSP, with no app script running (the
      // app's own sync requests would blur what the descriptions do).
      await page.goto('/healthz')
      // From here on, every request, dialog or error comes from the descriptions (but for the
      // site icon, which Chromium may fetch at any time).
      const watch = watchPage(page, [`${baseUrl()}/favicon.svg`])
      await page.evaluate(
        (descriptions) => {
          const section = document.createElement('section')
          for (const [i, html] of descriptions.entries()) {
            const div = document.createElement('div')
            div.className = 'payload'
            div.dataset.i = String(i)
            div.innerHTML = html
            section.append(div)
          }
          document.body.replaceChildren(section)
        },
        stored.map((s) => s.description),
      )
      const findings = await probe(page, watch)
      await screenshot(page, 'xss-app-origin')
      expect(findings.rendered).toBe(stored.length)
      expectInert(findings, 'app origin')
      // Nothing in a sanitised description is even attempted against the CSP.
      expect(await cspViolations(page)).toEqual([])
      console.log(
        `[e2e] rendered ${findings.rendered} stored descriptions (${findings.elements} elements) ` +
          `on the app origin, ${findings.hovered} hovered; links: ${JSON.stringify(findings.schemes)}`,
      )
    } finally {
      await context.close()
    }
  })

  test('the stored descriptions are inert without any CSP (the sanitiser alone)', async () => {
    const findings = await renderWithoutCsp(stored.map((s) => s.description))
    expect(findings.rendered).toBe(stored.length)
    expectInert(findings, 'no CSP')
    console.log(
      `[e2e] rendered ${findings.rendered} stored descriptions (${findings.elements} elements) ` +
        `without a CSP, ${findings.hovered} hovered; links: ${JSON.stringify(findings.schemes)}`,
    )
  })

  test('the probe does catch unsanitised payloads (control)', async () => {
    const findings = await renderWithoutCsp([
      '<img src=x onerror="alert(1)">',
      '<p onmouseover="alert(2)">hover me</p>',
      '<a href="javascript:alert(3)">click me</a>',
      '<img src="https://example.com/pixel.png" alt="">',
    ])
    expect(findings.fired).toEqual(expect.arrayContaining(['alert(1)', 'alert(2)', 'alert(3)']))
    expect(findings.badLinks).toEqual(['javascript:alert(3)'])
    expect(findings.requests).toEqual(['https://example.com/pixel.png'])
  })
})
