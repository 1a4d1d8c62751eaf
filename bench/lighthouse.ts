import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import lighthouse, { type Flags, type RunnerResult } from 'lighthouse'
import desktopConfig from 'lighthouse/core/config/desktop-config.js'
import puppeteer from 'puppeteer-core'
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/chromium.ts'
import { seedIfEmpty } from '../sync-server/demo/seed.ts'
import { startTestServer } from '../sync-server/test/server.ts'
import { builtApp } from './built-app.ts'

// `npm run bench:lighthouse`: Lighthouse 13 on the machine's Chromium, signed
// in, over the demo data (issue 14): `/`, `/topics`, a topic page and
// `/dashboard`, on a phone (Lighthouse's mobile defaults: a mid-range phone,
// 4× CPU, slow 4G, simulated) and on a desktop. The profile has visited each
// page once (first sync, service worker), so the figures are a return visit's.
// Each figure is printed beside its target; nothing is asserted.
// LIGHTHOUSE_REPORTS=dir also writes each full report there (JSON), to see what
// the blocking time is made of (the long-tasks and bootup-time audits).

const REPORTS = process.env.LIGHTHOUSE_REPORTS

const TARGET = {
  mobile: { performance: 95 },
  desktop: { performance: 98 },
  accessibility: 100,
  bestPractices: 100,
  lcpMs: 2_500,
  tbtMs: 150,
  cls: 0.02,
}

type Row = {
  form: 'mobile' | 'desktop'
  page: string
  performance: number
  accessibility: number
  bestPractices: number
  fcpMs: number
  lcpMs: number
  tbtMs: number
  cls: number
  failing: string[]
}

async function main(): Promise<void> {
  const app = await builtApp()
  const server = await startTestServer({ STATIC_DIR: app.dir })
  const browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: CHROMIUM_ARGS,
  })
  try {
    await seedIfEmpty(server.sql)
    const [mentor] = await server.sql<{ username: string }[]>`
      SELECT u.username FROM users u JOIN topics t ON t.mentor_id = u.id
      WHERE NOT u.is_admin GROUP BY u.username ORDER BY count(*) DESC, u.username LIMIT 1`
    const [topic] = await server.sql<{ id: string }[]>`
      SELECT id::text FROM topics WHERE status = 'approved' ORDER BY created_at DESC LIMIT 1`
    if (!mentor || !topic) throw new Error('The demo data has no mentor or no approved topic.')
    const client = await server.signIn(mentor.username)
    const [name = '', value = ''] = (client.cookie ?? '').split(';')[0]?.split('=') ?? []
    await browser.setCookie({
      name,
      value,
      domain: new URL(server.url).hostname,
      path: '/',
      httpOnly: true,
    })
    const pages = ['/', '/topics', `/topics/${topic.id}`, '/dashboard']
    const warm = await browser.newPage()
    for (const path of pages) {
      await warm.goto(server.url + path, { waitUntil: 'load' })
      await new Promise((resolve) => setTimeout(resolve, 3_000))
    }
    await warm.close()
    const port = Number(new URL(browser.wsEndpoint()).port)
    console.log(
      `Lighthouse on ${await browser.version()}, signed in as ${mentor.username} (demo data)`,
    )
    const rows: Row[] = []
    for (const form of ['mobile', 'desktop'] as const) {
      for (const path of pages) {
        const flags: Flags = {
          port,
          disableStorageReset: true,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
        }
        const result = await lighthouse(
          server.url + path,
          flags,
          form === 'desktop' ? desktopConfig : undefined,
        )
        const row = rowOf(form, path.replace(topic.id, ':id'), result)
        rows.push(row)
        if (REPORTS && result) {
          await mkdir(REPORTS, { recursive: true })
          const name = `${form}${row.page.replaceAll(/[/:]+/g, '-').replace(/-$/, '') || '-root'}.json`
          await writeFile(join(REPORTS, name), result.report as string)
        }
        console.log(
          `  ${form} ${row.page}: performance ${row.performance}, LCP ${row.lcpMs.toFixed(0)} ms, TBT ${row.tbtMs.toFixed(0)} ms`,
        )
      }
    }
    printReport(rows)
  } finally {
    await browser.close()
    await server.stop()
    await app.cleanup()
  }
}

function rowOf(form: Row['form'], page: string, result: RunnerResult | undefined): Row {
  if (!result) throw new Error(`Lighthouse gave no result for ${page}`)
  const { categories, audits } = result.lhr
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100)
  const value = (id: string) => audits[id]?.numericValue ?? Number.NaN
  // The audits that cost accessibility or best-practices points.
  const failing = ['accessibility', 'best-practices'].flatMap((id) =>
    (categories[id]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => ref.id),
  )
  return {
    form,
    page,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    fcpMs: value('first-contentful-paint'),
    lcpMs: value('largest-contentful-paint'),
    tbtMs: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    failing,
  }
}

function printReport(rows: Row[]): void {
  const met = (ok: boolean) => (ok ? 'met' : '**not met**')
  console.log(
    '\n| Form | Page | Performance | Accessibility | Best practices | FCP | LCP | TBT | CLS | Failing audits |',
  )
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
  for (const r of rows) {
    console.log(
      `| ${r.form} | ${r.page} | ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ` +
        `${r.fcpMs.toFixed(0)} ms | ${r.lcpMs.toFixed(0)} ms | ${r.tbtMs.toFixed(0)} ms | ` +
        `${r.cls.toFixed(3)} | ${r.failing.join(', ') || '–'} |`,
    )
  }
  const of = (form: Row['form']) => rows.filter((r) => r.form === form)
  const worst = (list: Row[], key: keyof Row) => Math.min(...list.map((r) => Number(r[key])))
  const most = (list: Row[], key: keyof Row) => Math.max(...list.map((r) => Number(r[key])))
  console.log('\n| Goal (worst of the four pages) | Mobile | Desktop | Target | Verdict |')
  console.log('| --- | --- | --- | --- | --- |')
  const mobile = of('mobile')
  const desktop = of('desktop')
  console.log(
    `| Performance | ${worst(mobile, 'performance')} | ${worst(desktop, 'performance')} | ≥ ${TARGET.mobile.performance} / ≥ ${TARGET.desktop.performance} | ` +
      `${met(worst(mobile, 'performance') >= TARGET.mobile.performance && worst(desktop, 'performance') >= TARGET.desktop.performance)} |`,
  )
  for (const [label, key, target, lower] of [
    ['LCP (ms)', 'lcpMs', TARGET.lcpMs, true],
    ['TBT (ms)', 'tbtMs', TARGET.tbtMs, true],
    ['CLS', 'cls', TARGET.cls, true],
    ['Accessibility', 'accessibility', TARGET.accessibility, false],
    ['Best practices', 'bestPractices', TARGET.bestPractices, false],
  ] as const) {
    const m = lower ? most(mobile, key) : worst(mobile, key)
    const d = lower ? most(desktop, key) : worst(desktop, key)
    const ok = lower ? m <= target && d <= target : m >= target && d >= target
    const show = (n: number) => (key === 'cls' ? n.toFixed(3) : n.toFixed(0))
    console.log(
      `| ${label} | ${show(m)} | ${show(d)} | ${lower ? '≤' : '≥'} ${target} | ${met(ok)} |`,
    )
  }
}

await main()
