import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiAs, DESKTOP, openApp, uniqueName } from './app.ts'
import { launchBrowser } from './browser.ts'

// One loading state in one place, nothing jumping (issue 16 item 10): the
// cumulative layout shift of /topics, /dashboard and a topic page, loaded
// cold on a phone and a desktop, stays at or under 0.02: the footer starts
// below the fold, the scrollbar's room is kept, a quick read shows no
// spinner, and a mentor's cards arrive with their applications. The admin
// topics screen's follow-up lists (issue 18) load in boxes of a fixed height.

const PHONE_360 = { width: 360, height: 740 }
const LIMIT = 0.02

let browser: Browser
let admin: ApiAs
let mentor: ApiAs
let topicId: string

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await ApiAs.signIn(browser, 'admin')
  mentor = await ApiAs.signIn(browser, uniqueName('steady-mentor'))
  const topic = await mentor.createTopic({ subject: uniqueName('Steady topic') })
  await admin.review(topic.id, 'approved')
  topicId = topic.id
  for (let i = 0; i < 2; i++) {
    const mentee = await ApiAs.signIn(browser, uniqueName(`steady-mentee${i}`))
    await mentee.apply(topic.id)
    await mentee.dispose()
  }
  await mentor.createTopic({ subject: uniqueName('Steady proposal') })
}, 60_000)

afterAll(async () => {
  await mentor?.dispose()
  await admin?.dispose()
  await browser?.close()
})

/** Starts summing layout shifts not caused by input, from the first paint on. */
async function watchShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __shifts: { value: number; sources: string[] }[] }
    w.__shifts = []
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number
        hadRecentInput: boolean
        sources?: { node?: Node }[]
      })[]) {
        if (entry.hadRecentInput) continue
        w.__shifts.push({
          value: entry.value,
          sources: (entry.sources ?? []).map((s) =>
            s.node instanceof Element
              ? `${s.node.tagName.toLowerCase()}.${s.node.className}`.slice(0, 80)
              : String(s.node?.nodeName),
          ),
        })
      }
    }).observe({ type: 'layout-shift', buffered: true })
  })
}

async function shifts(page: Page): Promise<{ total: number; sources: string[] }> {
  const all = await page.evaluate(
    () => (window as unknown as { __shifts: { value: number; sources: string[] }[] }).__shifts,
  )
  return {
    total: Math.round(all.reduce((sum, s) => sum + s.value, 0) * 1000) / 1000,
    sources: all.flatMap((s) => s.sources),
  }
}

const ROUTES = [
  { path: '/topics', ready: (p: Page) => p.getByTestId('topic-card').first().waitFor() },
  {
    path: '/dashboard',
    ready: (p: Page) => p.getByRole('button', { name: 'Accept' }).first().waitFor(),
  },
  {
    path: () => `/topics/${topicId}`,
    ready: (p: Page) => p.getByRole('heading', { level: 1 }).first().waitFor(),
  },
] as const

describe('layout stability', () => {
  for (const [name, viewport] of [
    ['a 360 px phone', PHONE_360],
    ['a desktop', DESKTOP],
  ] as const) {
    it(`keeps CLS at or under ${LIMIT} on ${name}, first visit and return visit`, async () => {
      const app = await openApp(browser, mentor.user.username, { path: '/', ...viewport })
      const { page } = app
      await watchShifts(page)
      const measured: Record<string, { total: number; sources: string[] }> = {}
      for (const visit of ['first', 'return']) {
        for (const route of ROUTES) {
          const path = typeof route.path === 'function' ? route.path() : route.path
          await page.goto(path)
          await route.ready(page)
          // Whatever arrives later (the rest of a sync, the event stream) has arrived.
          await page.waitForTimeout(1_000)
          measured[`${visit} ${path}`] = await shifts(page)
        }
      }
      for (const [where, { total, sources }] of Object.entries(measured)) {
        expect({ where, total, sources: total > LIMIT ? sources : [] }).toEqual({
          where,
          total: expect.any(Number),
          sources: [],
        })
        expect(total).toBeLessThanOrEqual(LIMIT)
      }
      await app.expectClean()
      await app.close()
    })
  }
})

describe('layout stability of the admin topics screen (issue 18)', () => {
  it(`keeps CLS at or under ${LIMIT} on a 360 px phone while the follow-up lists load`, async () => {
    const app = await openApp(browser, 'admin', { path: '/', ...PHONE_360 })
    const { page } = app
    await watchShifts(page)
    await page.goto('/admin/topics')
    await page.getByRole('heading', { name: 'Waiting for an answer', level: 2 }).waitFor()
    // The online read has answered (rows, "Nothing is waiting." or a message).
    await page.locator('[data-testid="waiting-for-answer"] [aria-busy="false"]').waitFor()
    await page.waitForTimeout(1_000)
    const { total, sources } = await shifts(page)
    expect({ total, sources: total > LIMIT ? sources : [] }).toEqual({
      total: expect.any(Number),
      sources: [],
    })
    await app.expectClean()
    await app.close()
  })
})
