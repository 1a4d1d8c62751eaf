import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import puppeteer from 'puppeteer-core'
import { Builder, By, type WebDriver } from 'selenium-webdriver'

/**
 * Firefox ESR (puppeteer-core over WebDriver BiDi) and WebKitGTK
 * (WebKitWebDriver through selenium-webdriver), both the machine's Debian
 * builds, behind one small interface: navigate, and run a script in the page.
 * The cross-engine journeys drive the page through the DOM (roles, labels),
 * which every engine runs alike; Chromium has its own fuller suite.
 */
export type EngineName = 'firefox' | 'webkit'

export type EnginePage = {
  goto: (url: string) => Promise<void>
  /**
   * Calls `fn` (the source of a function, self-contained) in the page with
   * `args` (JSON); answers its awaited value. Source text, not a function:
   * the test transpiler would add helpers the page does not have.
   */
  run: <T>(fn: string, ...args: unknown[]) => Promise<T>
  /** A real click (the engine's own input, not a script event) on the first match of a CSS selector. */
  click: (selector: string) => Promise<void>
  /** Types `text` with the engine's own key input into what has the focus. */
  type: (text: string) => Promise<void>
  close: () => Promise<void>
}

const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr'
const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver'
const MINIBROWSER_PATH =
  process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'

/** Why an engine cannot run here (a missing binary), or null. */
export function missingEngine(engine: EngineName): string | null {
  const needed =
    engine === 'firefox' ? [FIREFOX_PATH] : [WEBKIT_DRIVER_PATH, MINIBROWSER_PATH, '/usr/bin/Xvfb']
  const missing = needed.filter((path) => !existsSync(path))
  return missing.length
    ? `${missing.join(', ')} missing: apt-get install -y firefox-esr webkit2gtk-driver xvfb`
    : null
}

/** How the browser is opened: `dark` asks for the dark colour scheme (prefers-color-scheme). */
export type EngineOptions = { dark?: boolean }

/** A fresh Firefox profile and window: no storage, no service worker from before. */
async function openFirefox(options: EngineOptions): Promise<EnginePage> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    // Service workers on http://127.0.0.1 count as secure; nothing phones home.
    extraPrefsFirefox: {
      'app.update.enabled': false,
      'browser.shell.checkDefaultBrowser': false,
      // 0: pages see the dark scheme; 2: the system's (light here).
      'layout.css.prefers-color-scheme.content-override': options.dark ? 0 : 2,
    },
  })
  const [page] = await browser.pages()
  if (!page) throw new Error('Firefox opened without a page.')
  return {
    goto: async (url) => {
      await page.goto(url, { waitUntil: 'load' })
    },
    run: async <T>(fn: string, ...args: unknown[]) => (await page.evaluate(call(fn, args))) as T,
    click: (selector) => page.click(selector),
    type: (text) => page.keyboard.type(text),
    close: () => browser.close(),
  }
}

/** A script calling function source `fn` with JSON arguments. */
function call(fn: string, args: unknown[]): string {
  return `(${fn})(...${JSON.stringify(args)})`
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(address),
      )
    })
  })
}

async function waitForDriver(url: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`WebKitWebDriver exited (${child.exitCode}).`)
    try {
      if ((await fetch(`${url}/status`)).ok) return
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** An X display for WebKitGTK (it has no headless mode): one Xvfb for the process. */
let display: { name: string; child: ChildProcess } | null = null
async function xDisplay(): Promise<string> {
  if (process.env.DISPLAY) return process.env.DISPLAY
  if (display) return display.name
  const name = `:${100 + (process.pid % 800)}`
  const child = spawn('/usr/bin/Xvfb', [name, '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: 'ignore',
  })
  process.once('exit', () => child.kill())
  display = { name, child }
  // Xvfb is ready once its socket exists.
  const socket = `/tmp/.X11-unix/X${name.slice(1)}`
  for (let i = 0; i < 100 && !existsSync(socket); i += 1)
    await new Promise((r) => setTimeout(r, 50))
  return name
}

/** Stops the Xvfb this process started, if any. */
export function stopDisplay(): void {
  display?.child.kill()
  display = null
}

/** A fresh WebKitGTK MiniBrowser (its own driver process, so its own ephemeral storage). */
export async function openWebKit(options: EngineOptions = {}): Promise<EnginePage> {
  const port = await freePort()
  const child = spawn(WEBKIT_DRIVER_PATH, [`--port=${port}`], {
    stdio: 'ignore',
    env: {
      ...process.env,
      DISPLAY: await xDisplay(),
      // WebKitGTK takes prefers-color-scheme from the GTK theme.
      ...(options.dark ? { GTK_THEME: 'Adwaita:dark' } : {}),
    },
  })
  const url = `http://127.0.0.1:${port}`
  let driver: WebDriver
  try {
    await waitForDriver(url, child)
    driver = await new Builder()
      .usingServer(url)
      .withCapabilities({
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': { binary: MINIBROWSER_PATH, args: ['--automation'] },
      })
      .build()
  } catch (error) {
    child.kill()
    throw error
  }
  return {
    goto: (target) => driver.get(target),
    run: async (fn, ...args) => {
      const result = (await driver.executeAsyncScript(
        `const done = arguments[arguments.length - 1];
         Promise.resolve().then(() => ${call(fn, args)})
           .then((v) => done({ ok: true, v }), (e) => done({ ok: false, e: String((e && e.stack) || e) }));`,
      )) as { ok: boolean; v: never; e: string }
      if (!result.ok) throw new Error(`In WebKit: ${result.e}`)
      return result.v
    },
    click: async (selector) => {
      await driver.findElement(By.css(selector)).click()
    },
    type: async (text) => {
      await driver.actions().sendKeys(text).perform()
    },
    close: async () => {
      try {
        await driver.quit()
      } finally {
        child.kill()
      }
    },
  }
}

export function openEngine(engine: EngineName, options: EngineOptions = {}): Promise<EnginePage> {
  return engine === 'firefox' ? openFirefox(options) : openWebKit(options)
}
