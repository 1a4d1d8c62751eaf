import { performance } from 'node:perf_hooks'
import { chromium } from 'playwright-core'
import type { PullResponse } from '../shared/sync.ts'
import { startDeliveryWorker } from '../sync-server/delivery/worker.ts'
import { startFakePushService } from '../sync-server/push/testing.ts'
import { type Client, startTestServer } from '../sync-server/test/server.ts'
import { builtApp } from './built-app.ts'
import { type Device, openDevice, readTrace, watchFor } from './live-browser.ts'
import { type Run, report } from './live-report.ts'

// `npm run bench:live`: how fast a change shows on the other screens (issue 20).
// A mentee clicks Apply in one Chromium context; the mentor's open dashboard
// (another context), the mentee's second device and the mentor's push
// subscription see it. Beside it, in the same run, the protocol floor from
// Node: the apply's round trip plus the mentor's delta pull.
// LIVE_RUNS sets the number of runs (20); BENCH_SKIP_BUILD=1 reuses dist/.

const RUNS = Number(process.env.LIVE_RUNS ?? 20)
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

async function main(): Promise<void> {
  const staticDir = await builtApp()
  const server = await startTestServer({ STATIC_DIR: staticDir.dir })
  const push = await startFakePushService()
  const worker = startDeliveryWorker(server.sql, server.config, {
    log: { info: () => {}, warn: console.warn },
    // Every apply is pushed, whatever the hour: the daily budget and quiet hours
    // (issue 18) would hold the runs after the third, or all of them at night.
    pushBudget: Number.MAX_SAFE_INTEGER,
    now: () => new Date('2026-11-25T12:00:00Z'), // a Wednesday noon
  })
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  })
  try {
    const where = server.databaseUrl ? 'PostgreSQL' : 'embedded PGlite'
    console.log(`Live benchmark on ${where}, ${RUNS} runs, Chromium ${browser.version()}\n`)
    const admin = await server.signIn('live-admin')
    await server.sql`UPDATE users SET is_admin = true WHERE id = ${admin.user?.id ?? ''}`
    const mentor = await server.signIn('live-mentor')
    const device = push.device('mentor-phone')
    const subscribed = await mentor.post('/api/push/subscriptions', device.subscription)
    if (subscribed.status !== 201) throw new Error(`push subscription: ${subscribed.text}`)
    const floorMentee = await server.signIn('live-floor-mentee')
    await server.signIn('live-mentee')

    const dashboard = await openDevice(browser, server.url, 'mentor', 'live-mentor', '/dashboard')
    const laptop = await openDevice(browser, server.url, 'laptop', 'live-mentee', '/topics')
    const phone = await openDevice(browser, server.url, 'phone', 'live-mentee', '/topics')
    let cursor = await pullToEnd(mentor, undefined)

    const runs: Run[] = []
    for (let i = 0; i < RUNS; i++) {
      const topic = await approvedTopic(admin, mentor, `Live topic ${i}`)
      await Promise.all([
        dashboard.page.getByRole('heading', { name: topic.subject }).first().waitFor(),
        open(laptop, topic.id, `Apply to ${topic.subject}`),
        open(phone, topic.id, `Apply to ${topic.subject}`),
      ])
      cursor = await pullToEnd(mentor, cursor)
      // A quiet period: every coalescing window of the setup's changes has closed.
      await new Promise((resolve) => setTimeout(resolve, 2_500))

      // The floor: a write and a delta pull through HTTP from Node, nothing else.
      const f0 = performance.now()
      const applied = await floorMentee.post(`/api/topics/${topic.id}/apply`)
      const f1 = performance.now()
      if (applied.status !== 201) throw new Error(`floor apply: ${applied.text}`)
      cursor = await pullToEnd(mentor, cursor)
      const f2 = performance.now()
      await new Promise((resolve) => setTimeout(resolve, 2_500))

      const onDashboard = await watchFor(
        dashboard,
        `[aria-labelledby="topic-${topic.id}"] [aria-label="Application from live-mentee"]`,
      )
      const onPhone = await watchFor(phone, 'h2', 'Your application')
      const pushesBefore = device.received().length
      await laptop.page.getByRole('button', { name: `Apply to ${topic.subject}` }).click()
      const [seen, phoneSeen, pushed] = await Promise.all([
        onDashboard(),
        onPhone(),
        push.waitFor(pushesBefore + 1, device.name, 30_000).then((all) => all.at(-1)?.at ?? 0),
      ])
      const [mentorTrace, laptopTrace] = await Promise.all([
        readTrace(dashboard),
        readTrace(laptop),
      ])
      const click = laptopTrace.clicks.at(-1) ?? Number.NaN
      const poke = mentorTrace.pokes.find((t) => t >= click)
      const pull = mentorTrace.pulls.find((p) => p.start >= click)
      const sent = laptopTrace.pushes.find((p) => p.start >= click)
      runs.push({
        floor: { write: f1 - f0, pull: f2 - f1 },
        dashboard: seen - click,
        phone: phoneSeen - click,
        push: pushed - click,
        poke: poke === undefined ? Number.NaN : poke - click,
        pullStart: pull ? pull.start - click : Number.NaN,
        pullEnd: pull ? pull.end - click : Number.NaN,
        pushStart: sent ? sent.start - click : Number.NaN,
        pushEnd: sent ? sent.end - click : Number.NaN,
        parts: { push: sent, pull },
      })
      process.stdout.write('.')
    }
    process.stdout.write('\n\n')
    report(runs)
  } finally {
    await browser.close()
    await worker.stop()
    await push.close()
    await server.stop()
    await staticDir.cleanup()
  }
}

/** Opens the topic page on a device and waits until it can act on it. */
async function open(device: Device, topicId: string, button: string): Promise<void> {
  await device.page.goto(`/topics/${topicId}`)
  await device.page.getByRole('button', { name: button }).waitFor({ timeout: 30_000 })
}

async function approvedTopic(admin: Client, mentor: Client, subject: string) {
  const created = await mentor.post('/api/topics', {
    subject,
    description: '<p>A topic of the live benchmark.</p>',
    maxMentees: 2,
    seniorityRequired: ['junior', 'mid', 'senior'],
    location: 'online',
    interests: ['Benchmarks'],
  })
  if (created.status !== 201) throw new Error(`create topic: ${created.text}`)
  const topic = created.body as { id: string; subject: string }
  const reviewed = await admin.post(`/api/admin/topics/${topic.id}/review`, { status: 'approved' })
  if (reviewed.status !== 200) throw new Error(`approve topic: ${reviewed.text}`)
  return topic
}

/** Pulls to the end from `cursor`; answers the last cursor. */
async function pullToEnd(client: Client, cursor: string | undefined): Promise<string> {
  let next = cursor
  for (;;) {
    const res = await client.get(`/api/sync/pull${next ? `?cursor=${next}` : ''}`)
    if (res.status !== 200) throw new Error(`pull answered ${res.status}: ${res.text}`)
    const page = res.body as PullResponse
    next = page.cursor
    if (!page.hasMore) return next
  }
}

await main()
