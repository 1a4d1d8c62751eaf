import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from 'playwright-core'
import { inject } from 'vitest'
import { CHROMIUM_ARGS, chromiumPath } from './chromium.ts'

/** Where screenshot() writes its PNGs (gitignored). */
const SCREENSHOT_DIR = fileURLToPath(new URL('./screenshots/', import.meta.url))

/** The address of the server the e2e globalSetup started, e.g. http://127.0.0.1:41234. */
export function baseUrl(): string {
  return inject('baseUrl')
}

/** Starts the machine's Chromium (never a downloaded one), headless. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: CHROMIUM_ARGS,
  })
}

/** A Content-Security-Policy violation as the page's `securitypolicyviolation` event saw it. */
export type CspViolation = {
  violatedDirective: string
  effectiveDirective: string
  blockedURI: string
  sourceFile: string
  lineNumber: number
  sample: string
  documentURI: string
}

export type OpenPage = {
  context: BrowserContext
  page: Page
  /** Text of every console message of type error, in order. */
  consoleErrors: string[]
  /** Uncaught exceptions in the page. */
  pageErrors: Error[]
  /** The CSP violations the current document has reported so far. */
  cspViolations: () => Promise<CspViolation[]>
  close: () => Promise<void>
}

export type PageOptions = {
  width: number
  height: number
  colorScheme?: 'light' | 'dark' | 'no-preference'
  /** Further context options (baseURL defaults to the server under test). */
  context?: BrowserContextOptions
}

/**
 * A page in a context of its own, with the given viewport, recording console
 * errors, page errors and CSP violations. Relative URLs go to the server under test.
 *
 * @example
 * const { page, consoleErrors, cspViolations, close } = await openPage(browser, { width: 375, height: 812 })
 * await page.goto('/')
 */
export async function openPage(browser: Browser, options: PageOptions): Promise<OpenPage> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: options.width, height: options.height },
    ...(options.colorScheme ? { colorScheme: options.colorScheme } : {}),
    ...options.context,
  })
  await recordCspViolations(context)
  const page = await context.newPage()
  const consoleErrors: string[] = []
  const pageErrors: Error[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') {
      const { url, lineNumber } = message.location()
      consoleErrors.push(`${message.text()}${url ? ` (${url}:${lineNumber})` : ''}`)
    }
  })
  page.on('pageerror', (error) => pageErrors.push(error))
  return {
    context,
    page,
    consoleErrors,
    pageErrors,
    cspViolations: () => cspViolations(page),
    close: () => context.close(),
  }
}

/**
 * Makes every document of the context collect its `securitypolicyviolation`
 * events in a window array (init scripts run before the page's own, and CSP
 * does not apply to them). Read them back with cspViolations(page).
 */
export async function recordCspViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = window as unknown as { __cspViolations?: unknown[] }
    w.__cspViolations = []
    window.addEventListener(
      'securitypolicyviolation',
      (e) => {
        w.__cspViolations?.push({
          violatedDirective: e.violatedDirective,
          effectiveDirective: e.effectiveDirective,
          blockedURI: e.blockedURI,
          sourceFile: e.sourceFile,
          lineNumber: e.lineNumber,
          sample: e.sample,
          documentURI: e.documentURI,
        })
      },
      true,
    )
  })
}

/** The CSP violations the page's current document has recorded (see recordCspViolations). */
export function cspViolations(page: Page): Promise<CspViolation[]> {
  return page.evaluate(
    () => (window as unknown as { __cspViolations?: CspViolation[] }).__cspViolations ?? [],
  )
}

/**
 * Signs the browser context in as `username` through the development sign-in
 * (an unknown username is created). The session cookie lands in the context's
 * cookie jar, so its pages are signed in. Answers the user.
 */
export async function signIn(
  context: BrowserContext,
  username: string,
): Promise<{ id: string; username: string; isAdmin: boolean }> {
  const res = await context.request.post(`${baseUrl()}/api/auth/dev-login`, {
    data: { userId: username },
  })
  if (res.status() !== 200)
    throw new Error(`dev-login as ${username} failed: ${res.status()} ${await res.text()}`)
  return res.json()
}

/** Saves a full-page PNG of the page as e2e/screenshots/{name}.png; answers its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true })
  const path = join(SCREENSHOT_DIR, `${name}.png`)
  // A full-page capture of a long page can take a while on a busy machine.
  await page.screenshot({ path, fullPage: true, timeout: 60_000 })
  return path
}
