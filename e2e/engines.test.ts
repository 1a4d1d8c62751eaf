import { afterAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { uniqueName } from './app.ts'
import { baseUrl } from './browser.ts'
import {
  CARD_TEXT,
  CLICK_BUTTON,
  DRAWN_DARK,
  LABELLED_TEXT,
  MARK_BUTTON,
  MARK_FIELD,
  REPORT_STALL,
  SHELL_UP,
  SHOWS_TEXT,
  SIGN_IN,
  SYNC_STATUS,
  waitForServiceWorker,
  waitInPage,
} from './engine-steps.ts'
import {
  type EngineName,
  type EnginePage,
  missingEngine,
  openEngine,
  stopDisplay,
} from './engines.ts'
import { apiAs, approvedTopicFor } from './engines-api.ts'
import { SwitchableProxy } from './switchable-proxy.ts'

// The representative journeys in the engines besides Chromium: Firefox ESR
// and WebKitGTK (what every iPhone browser is built on).
// 1. A new user signs in, finds a topic in the list, applies, sees it
//    pending after a reload (the server's state, pulled again), the
//    dashboard loads, the service worker takes control, and a watchdog
//    report reaches the server.
// 2. A mentor loses the network: the app reloads from the service worker
//    and IndexedDB, an Accept waits on the device, and goes out once the
//    network is back. Neither driver can switch a browser offline, so the
//    browser reaches the server through a proxy that drops the network.
// 3. In the dark colour scheme, a topic is written in the rich-text editor
//    (typed with the engine's own keys, bold from the toolbar) and saved.
// Push is not among them: both engines here need a push service this
// machine cannot reach (Firefox: Mozilla's; WebKitGTK has none).

const opened: EnginePage[] = []
const proxies: SwitchableProxy[] = []
afterAll(async () => {
  await Promise.all(opened.map((p) => p.close().catch(() => {})))
  await Promise.all(proxies.map((p) => p.stop()))
  stopDisplay()
})

/** Both by default; E2E_ENGINES=firefox (or webkit) runs one. */
const ENGINES = z
  .array(z.enum(['firefox', 'webkit']))
  .parse((process.env.E2E_ENGINES ?? 'firefox,webkit').split(',').map((e) => e.trim()))

async function open(engine: EngineName, options: { dark?: boolean } = {}): Promise<EnginePage> {
  const missing = missingEngine(engine)
  if (missing) throw new Error(`Cannot run the ${engine} journey: ${missing}`)
  const page = await openEngine(engine, options)
  opened.push(page)
  return page
}

/** Clicks (a real click) the button or option named `name`, once it is there. */
async function click(
  page: EnginePage,
  name: string,
  options: { within?: string; prefix?: boolean } = {},
): Promise<void> {
  await waitInPage(page, `the button ${name}`, `(...a) => !!(${MARK_BUTTON})(...a)`, [
    name,
    options.within ?? null,
    options.prefix ?? false,
  ])
  const selector = await page.run<string>(
    MARK_BUTTON,
    name,
    options.within ?? null,
    options.prefix ?? false,
  )
  await page.click(selector)
}

/** Clicks into the text field labelled `label` and types `text` with the engine's keys. */
async function typeInto(page: EnginePage, label: string, text: string): Promise<void> {
  await waitInPage(page, `the field ${label}`, `(l) => !!(${MARK_FIELD})(l)`, [label])
  await page.click(await page.run<string>(MARK_FIELD, label))
  await page.type(text)
}

/**
 * The options of a test that waits for the service worker. WebKitGTK sometimes
 * leaves a worker "installing" with not one file of its precache fetched
 * ("cached so far: no cache"), for as long as the test runs: seen four times
 * in the sessions of 2026-11-27 and 28, mostly in runs of all the browser
 * tests. A stuck install cannot be given up from the page (unregister()
 * waits behind it), so in WebKit the test runs once more, in a new session;
 * it must then pass whole.
 */
function serviceWorkerTest(engine: EngineName) {
  return { timeout: 180_000, retry: engine === 'webkit' ? 1 : 0 }
}

describe.each<EngineName>(ENGINES)('in %s', (engine) => {
  it(
    'signs in, lists, applies, keeps it over a reload, loads the dashboard',
    serviceWorkerTest(engine),
    async () => {
      const subject = uniqueName(`Engines ${engine}`)
      await approvedTopicFor(uniqueName('engines-mentor'), subject)
      const page = await open(engine)
      const base = baseUrl()

      await page.goto(`${base}/`)
      expect(await page.run<number>(SIGN_IN, uniqueName(`engines-${engine}`))).toBe(200)
      await page.goto(`${base}/topics`)
      await waitInPage(page, 'the signed-in shell', SHELL_UP)
      await waitInPage(
        page,
        'the topic card with Apply',
        `(s) => (${CARD_TEXT})(s).includes('Apply')`,
        [subject],
      )
      expect(await page.run<boolean>(CLICK_BUTTON, `Apply to ${subject}`)).toBe(true)
      await waitInPage(page, 'the success toast', SHOWS_TEXT, [
        'Application submitted successfully',
      ])
      await waitInPage(
        page,
        'Application Pending on the card',
        `(s) => (${CARD_TEXT})(s).includes('Application Pending')`,
        [subject],
      )

      // A full reload: what shows comes from IndexedDB and the next pull, not from memory.
      await page.goto(`${base}/topics`)
      await waitInPage(
        page,
        'Application Pending after a reload',
        `(s) => (${CARD_TEXT})(s).includes('Application Pending')`,
        [subject],
      )
      expect(await page.run<string>(CARD_TEXT, subject)).not.toContain(`Apply to`)

      // The dashboard's "Topics I Mentor" finishes loading (the WebKit wedge left it spinning).
      await page.goto(`${base}/dashboard`)
      await waitInPage(page, 'Topics I Mentor loaded', SHOWS_TEXT, [
        "You haven't created any topics yet",
      ])

      await waitForServiceWorker(page)
      expect(await page.run<number>(REPORT_STALL, engine === 'firefox' ? 'gecko' : 'webkit')).toBe(
        202,
      )
    },
  )
})

describe.each<EngineName>(ENGINES)('in %s, without a network', (engine) => {
  it(
    'reloads offline, accepts on the device, and sends it once the network is back',
    serviceWorkerTest(engine),
    async () => {
      const proxy = new SwitchableProxy(new URL(baseUrl()))
      proxies.push(proxy)
      const base = await proxy.start()
      const mentorName = uniqueName(`engines-${engine}-mentor`)
      const menteeName = uniqueName(`engines-${engine}-mentee`)
      const topicId = await approvedTopicFor(mentorName, uniqueName(`Offline ${engine}`))
      const mentee = await apiAs(menteeName)
      await mentee.post(`/api/topics/${topicId}/apply`, {})
      const statusSeenByMentee = async () =>
        (await mentee.get<{ topicId: string; status: string }[]>('/api/my-applications')).find(
          (a) => a.topicId === topicId,
        )?.status
      const row = `Application from ${menteeName}`

      const page = await open(engine)
      await page.goto(`${base}/`)
      expect(await page.run<number>(SIGN_IN, mentorName)).toBe(200)
      await page.goto(`${base}/dashboard`)
      await waitInPage(page, 'the application', `(l) => (${LABELLED_TEXT})(l).includes('Accept')`, [
        row,
      ])
      await waitForServiceWorker(page)
      await waitInPage(
        page,
        'the service worker in control',
        `() => !!navigator.serviceWorker.controller`,
      )
      await waitInPage(page, 'everything saved', `() => (${SYNC_STATUS})() === 'All changes saved'`)

      proxy.goDown()
      // A full reload with no network: the shell from the service worker, the data from IndexedDB.
      await page.goto(`${base}/dashboard`)
      await click(page, 'Accept', { within: row })
      await waitInPage(
        page,
        'the acceptance waiting on the device',
        `(l) => (${LABELLED_TEXT})(l).includes('Awaiting confirmation')`,
        [row],
      )
      // The status counts the change a moment after the card shows it (it follows the outbox), and
      // may say Offline first: the change was tried at once and found no network.
      await waitInPage(
        page,
        'the change counted as waiting',
        `() => /1 (change )?waiting to sync/.test((${SYNC_STATUS})())`,
      )
      expect(await statusSeenByMentee()).toBe('pending')

      proxy.goUp()
      await waitInPage(
        page,
        'the acceptance saved',
        `(l) => { const t = (${LABELLED_TEXT})(l); return t.includes('Accepted') && !t.includes('Awaiting confirmation') }`,
        [row],
        60_000,
      )
      expect(await statusSeenByMentee()).toBe('accepted')
    },
  )
})

describe.each<EngineName>(ENGINES)('in %s, dark', (engine) => {
  it('writes a topic in the rich-text editor, drawn in the dark colour scheme', async () => {
    const subject = uniqueName(`Editor ${engine}`)
    const page = await open(engine, { dark: true })
    const base = baseUrl()
    await page.goto(`${base}/`)
    expect(await page.run<number>(SIGN_IN, uniqueName(`engines-${engine}-author`))).toBe(200)
    await page.goto(`${base}/create`)
    await waitInPage(page, 'the topic form', SHOWS_TEXT, ['Create Topic'])
    expect(
      await page.run<boolean>(`() => matchMedia('(prefers-color-scheme: dark)').matches`),
    ).toBe(true)
    expect(await page.run<boolean>(DRAWN_DARK)).toBe(true)

    await typeInto(page, 'Subject', subject)
    await click(page, 'Required Seniority', { prefix: true })
    await click(page, 'Senior')
    await waitInPage(
      page,
      'Senior chosen',
      `() => !!document.querySelector('button[aria-label="Remove Senior"]')`,
    )
    await typeInto(page, 'Description', 'Read code together and refactor ')
    await click(page, 'Bold', { within: 'Formatting' })
    await page.type('safely')
    await waitInPage(
      page,
      'bold in the editor',
      `() => document.querySelector('.ProseMirror strong')?.textContent === 'safely'`,
    )
    await click(page, 'Create Topic')

    const description = `async (subject) => {
      const { user } = await (await fetch('/api/auth/session')).json()
      const topics = await (await fetch('/api/topics/mentor/' + user.id)).json()
      return topics.find((t) => t.subject === subject)?.description ?? ''
    }`
    await waitInPage(page, 'the topic saved', `async (s) => (await (${description})(s)) !== ''`, [
      subject,
    ])
    expect(await page.run<string>(description, subject)).toBe(
      '<p>Read code together and refactor <strong>safely</strong></p>',
    )
  })
})
