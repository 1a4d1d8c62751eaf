import { performance } from 'node:perf_hooks'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { CHROMIUM_ARGS } from '../e2e/chromium.ts'
import { SCHEMA_VERSIONS } from '../pwa/src/sync/engine/db.ts'
import { SYNC_TABLES } from '../shared/sync.ts'
import type { Sql } from '../sync-server/db/connect.ts'
import { COMPANY_USERS, seedScale } from '../sync-server/demo/seed-scale.ts'
import { startTestServer } from '../sync-server/test/server.ts'
import { builtApp } from './built-app.ts'
import {
  armListChange,
  atRest,
  type Figure,
  type Floor,
  fetchFloor,
  firstCard,
  firstContentfulPaint,
  INSTRUMENT,
  isMissing,
  layoutShift,
  listChanged,
  longTasksUntil,
  type Missing,
  type StoreFloor,
  scriptBytes,
  scrollDown,
  snapshotShown,
  storeFloor,
  syncEnd,
  watchPullRequests,
  within,
} from './client-page.ts'
import {
  type ColdStarts,
  type FilterRun,
  type FirstSync,
  FLING,
  median,
  printReport,
  type ScaleRun,
  type SmallOnly,
} from './client-report.ts'

// `npm run bench:client`: the app in Chromium over a database seeded to
// company scale, beside the same figures over a small one (issue 14). Each
// goal's figure is printed beside its target; nothing is asserted.
// CLIENT_SIZE=<users> sets the big size (default 5,000 users → 10,000 topics);
// CLIENT_PHONE=0 leaves out the 4× CPU phone row; BENCH_SKIP_BUILD=1 reuses dist/.

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
const SMALL_USERS = 50
const BIG_USERS = Number(process.env.CLIENT_SIZE ?? COMPANY_USERS)
const PHONE_ROW = process.env.CLIENT_PHONE !== '0'
const SEED = 19

const DESKTOP = { width: 1280, height: 800 }
const PHONE = { width: 360, height: 740 }
/**
 * Each one changes the cards on the first screen, from All Locations on, at
 * both sizes. ("Online" first left the 100-topic seed's first screen as it
 * was, and the benchmark waited out its whole budget for a change.)
 */
const LOCATIONS = ['In Person', 'Online', 'Both', 'All Locations', 'In Person']
/**
 * Typed into the search field one key at a time, each from an empty field. Past a
 * word's first letters the list often stays as it was ("practical" changes it
 * on 2 of its 9 keys at 10,000 topics); the two-word queries change it on about
 * five keys each, so the figure is a median of a dozen, not of two.
 */
const SEARCH_QUERIES = ['practical', 'data pipelines', 'research interviews']
const COLD_RUNS = 3

/** Time limits in seconds: a slow figure is printed as "timed out after N s", never waited for. */
const LIMITS = {
  firstCard: 120,
  syncEnd: 240,
  filterBudget: 150,
  /** A key whose list does not change is waited for this long (most change within 0.1 s). */
  searchKey: 2,
  scroll: 120,
  coldStart: 60,
  coldBudget: 90,
  phoneFirstCard: 90,
  phoneSync: 120,
  phoneFilterBudget: 60,
}

type Person = { username: string; id: string }
type People = { member: Person; mentor: Person; topicId: string }

async function main(): Promise<void> {
  if (!Number.isInteger(BIG_USERS) || BIG_USERS < 10) {
    throw new Error(`CLIENT_SIZE must be a whole number of users, 10 or more, not "${BIG_USERS}".`)
  }
  const started = performance.now()
  const staticDir = await builtApp()
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS, '--js-flags=--expose-gc', '--enable-precise-memory-info'],
  })
  try {
    const where = process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'
    console.log(
      `Client benchmark on ${where}, Chromium ${browser.version()}: ${SMALL_USERS} and ${BIG_USERS} users\n`,
    )
    let smallOnly: SmallOnly | undefined
    const runs: ScaleRun[] = []
    for (const users of [SMALL_USERS, BIG_USERS]) {
      const server = await startTestServer({ STATIC_DIR: staticDir.dir })
      try {
        const seeded = performance.now()
        const counts = await seedScale(server.sql, { users, seed: SEED })
        const people = await choosePeople(server.sql)
        log(
          `${users} users: seeded ${counts.topics} topics, ${counts.applications} applications in ` +
            `${seconds(performance.now() - seeded)}; member ${people.member.username}, mentor ${people.mentor.username}`,
        )
        runs.push(await measureScale(browser, server.url, users, people))
        if (users === SMALL_USERS) smallOnly = await measureSmallOnly(browser, server.url, people)
      } finally {
        await server.stop()
      }
    }
    const [small, company] = runs
    if (!small || !company || !smallOnly) throw new Error('A scale was not measured.')
    console.log(`\nTook ${seconds(performance.now() - started)}.\n`)
    printReport(small, company, smallOnly, PHONE_ROW)
  } finally {
    await browser.close()
    await staticDir.cleanup()
  }
}

/**
 * Who signs in: an ordinary member who is only a mentee (the most
 * applications), a mentor (the most topics), and a topic the member applied to.
 */
async function choosePeople(sql: Sql): Promise<People> {
  const [member] = await sql<Person[]>`
    SELECT u.username, u.id::text AS id FROM users u JOIN applications a ON a.mentee_id = u.id
    WHERE NOT u.is_admin AND NOT EXISTS (SELECT 1 FROM topics t WHERE t.mentor_id = u.id)
    GROUP BY u.id ORDER BY count(*) DESC, u.username LIMIT 1`
  const [mentor] = await sql<Person[]>`
    SELECT u.username, u.id::text AS id FROM users u JOIN topics t ON t.mentor_id = u.id
    WHERE NOT u.is_admin GROUP BY u.id ORDER BY count(*) DESC, u.username LIMIT 1`
  if (!member || !mentor) throw new Error('The seeded data has no mentee-only member or no mentor.')
  const [topic] = await sql<{ id: string }[]>`
    SELECT t.id::text AS id FROM topics t JOIN applications a ON a.topic_id = t.id
    WHERE a.mentee_id = ${member.id} ORDER BY t.created_at DESC LIMIT 1`
  if (!topic) throw new Error(`${member.username} has no applications.`)
  return { member, mentor, topicId: topic.id }
}

/** A fresh browser context (a new profile) signed in as `username` through dev-login. */
async function signedIn(
  browser: Browser,
  url: string,
  username: string,
  viewport: { width: number; height: number },
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: url, viewport })
  await context.addInitScript(INSTRUMENT)
  const res = await context.request.post(`${url}/api/auth/dev-login`, {
    data: { userId: username },
    headers: { origin: url },
  })
  if (!res.ok()) throw new Error(`dev-login as ${username}: ${res.status()} ${await res.text()}`)
  return context
}

/** Every figure of one database size, in one fresh context and the pages after it. */
async function measureScale(
  browser: Browser,
  url: string,
  users: number,
  people: People,
): Promise<ScaleRun> {
  const context = await signedIn(browser, url, people.member.username, DESKTOP)
  try {
    const page = await context.newPage()
    const sync = await firstSync(page, people.member.id, LIMITS.firstCard, LIMITS.syncEnd)
    log(`  first sync: card ${show(sync.firstCard)}, end ${show(sync.end)}`)
    const { floor, store } = await bestFloor(browser, url, people.member.username)
    log(`  fetch floor: ${isMissing(floor) ? floor.missing : `${floor.ms.toFixed(0)} ms`}`)
    log(
      `  fetch-and-store floor: ${isMissing(store) ? store.missing : `${store.ms.toFixed(0)} ms, ${store.rows} rows`}`,
    )
    const rest = await within(60, atRest(page))
    log(`  at rest: ${isMissing(rest) ? rest.missing : `${rest.nodes} elements`}`)
    const filter = await filterChanges(page, LIMITS.filterBudget, LOCATIONS)
    log(`  filter: ${filter.changes.map((c) => show(c)).join(', ')} ${filter.note ?? ''}`)
    const search = await searchKeys(page)
    log(`  search: ${search === 'not built' ? search : search.map((c) => show(c)).join(', ')}`)
    await within(90, recommendationChurn(page, 12))
    const matching = await within(
      30,
      page.evaluate<{ recommend: number[]; firstPlaces: number[] }>(`({
        recommend: performance.getEntriesByName('pairwise:recommend').map((e) => e.duration),
        firstPlaces: performance.getEntriesByName('pairwise:first-places').map((e) => e.duration),
      })`),
    )
    log(
      `  matching: ${isMissing(matching) ? matching.missing : `recommendations ${spread(matching.recommend)}; first places ${spread(matching.firstPlaces)}`}`,
    )
    const scroll = await within(LIMITS.scroll, scrollDown(page, 40, 800))
    // A phone's fastest fling (Android caps it at 8,000 dp/s: 133 px a frame), over rows not drawn yet.
    const fling = await within(LIMITS.scroll, scrollDown(page, FLING.steps, FLING.px, true))
    log(
      `  scroll: ${isMissing(scroll) ? scroll.missing : `${scroll.over16} frames > 16.7 ms`}; fling ${isMissing(fling) ? fling.missing : `${fling.over16} frames > 16.7 ms`}`,
    )
    const controlled = await within(
      30,
      page.evaluate<boolean>(
        'navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller !== null)',
      ),
    )
    if (controlled !== true)
      log(`  the service worker does not control the page: ${show(controlled)}`)
    await page.close()
    const coldOnline = await coldStarts(context, false)
    const coldOffline = await coldStarts(context, true)
    log(`  cold start: online ${show(coldOnline.card)}, offline ${show(coldOffline.card)}`)
    const phone = PHONE_ROW ? await phoneRow(browser, url, people) : undefined
    return {
      users,
      firstSync: sync,
      floor,
      storeFloor: store,
      rest,
      filter,
      search,
      matching,
      scroll,
      fling,
      coldOnline,
      coldOffline,
      phone,
    }
  } finally {
    await context.close()
  }
}

/**
 * "Not interested" on the first recommendation and Undo, `cycles` times, a
 * little over the matching read's 2 s gap apart: each change makes the app
 * read and weigh everything again, so the user timings hold enough
 * computations for a p95 beyond the first (cold) one.
 */
async function recommendationChurn(page: Page, cycles: number): Promise<void> {
  for (let i = 0; i < cycles; i++) {
    const dismiss = page.getByRole('button', { name: /^Not interested in / }).first()
    if ((await dismiss.count()) === 0) return
    await dismiss.click()
    await page.getByRole('button', { name: 'Undo' }).click()
    await page.waitForTimeout(2_500)
  }
}

/** Every value, sorted, in whole ms. */
function spread(values: number[]): string {
  return `[${[...values]
    .sort((a, b) => a - b)
    .map((v) => v.toFixed(0))
    .join(', ')}] ms`
}

/** Opens /topics in a fresh context: the first card, the sync's end, the pull requests. */
async function firstSync(
  page: Page,
  userId: string,
  cardLimit: number,
  syncLimit: number,
): Promise<FirstSync> {
  const t0 = performance.now()
  const pullRequests = watchPullRequests(page)
  await page.goto('/topics', { waitUntil: 'commit' })
  const card = await firstCard(page, cardLimit)
  const left = Math.max(1, Math.round(syncLimit - (performance.now() - t0) / 1000))
  const end = await syncEnd(page, userId, left)
  const pulls = await within(30, pullRequests())
  const tasks = isMissing(end) ? end : await within(30, longTasksUntil(page, end.end))
  return {
    firstCard: card,
    end: isMissing(end) ? end : end.end,
    seen: isMissing(end) ? end : end.seen,
    // The first sync's pages only, not a delta pull that followed it.
    pulls: isMissing(pulls) ? [] : pulls.filter((p) => isMissing(end) || p.start <= end.end),
    longTasks: tasks,
  }
}

/** The synced tables' stores and indexes as the app's database declares them (Dexie's syntax). */
function syncedStores(): Record<string, string> {
  const all: Record<string, string | null> = {}
  for (const version of SCHEMA_VERSIONS) Object.assign(all, version.stores)
  const stores: Record<string, string> = {}
  for (const table of SYNC_TABLES) {
    const spec = all[table]
    if (typeof spec === 'string') stores[table] = spec
  }
  return stores
}

/**
 * The faster of two fetch-only floors, and of two fetch-and-store floors
 * (the same pages' rows put with plain IndexedDB: what a device cannot do
 * without), in a context of its own signed in as the same user (same pages;
 * /healthz runs no app). Not in the app's page, nor another page of its
 * context: those share the app's renderer, and at company scale the loop's
 * answers waited 1.3–6 s behind the rendering that follows the sync, which
 * the floor must leave out.
 */
async function bestFloor(
  browser: Browser,
  url: string,
  username: string,
): Promise<{ floor: Floor | Missing; store: StoreFloor | Missing }> {
  const context = await signedIn(browser, url, username, DESKTOP)
  try {
    const page = await context.newPage()
    await page.goto('/healthz')
    const floor = await fastestOf(() => within(60, fetchFloor(page)))
    const stores = syncedStores()
    const store = await fastestOf(() => within(120, storeFloor(page, stores)))
    return { floor, store }
  } finally {
    await context.close()
  }
}

/** The faster of two runs of `measure`; a run that fails ends it (its failure if none answered). */
async function fastestOf<T extends { ms: number }>(
  measure: () => Promise<T | Missing>,
): Promise<T | Missing> {
  let best: T | Missing = { missing: 'not run' }
  for (let i = 0; i < 2; i++) {
    const run = await measure()
    if (isMissing(run)) return isMissing(best) ? run : best
    if (isMissing(best) || run.ms < best.ms) best = run
  }
  return best
}

/**
 * Changes the Location filter to each of `options` in turn: the dropdown's
 * opening (timed from Node, click to option shown) and the selection click
 * to the paint after the list changed (timed in the page). Stops when the
 * budget is spent.
 */
async function filterChanges(page: Page, budget: number, options: string[]): Promise<FilterRun> {
  const deadline = performance.now() + budget * 1000
  const run: FilterRun = { open: [], changes: [] }
  const left = () => Math.max(1, Math.round((deadline - performance.now()) / 1000))
  for (const option of options) {
    if (performance.now() > deadline) {
      run.note = `${run.changes.length} of ${options.length} changes within ${budget} s`
      break
    }
    const choice = page.getByRole('option', { name: option, exact: true })
    const t0 = performance.now()
    const allowed = left()
    const opened = await within(
      allowed,
      (async () => {
        await page.getByRole('button', { name: /^Location/ }).click({ timeout: 0 })
        await choice.waitFor({ timeout: 0 })
      })(),
    )
    if (isMissing(opened)) {
      run.note = `${run.changes.length} of ${options.length} changes within ${budget} s (the next dropdown did not open in the ${allowed} s left)`
      break
    }
    run.open.push(performance.now() - t0)
    const seconds = left()
    await armListChange(page, 'pointerdown', seconds)
    const clicked = await within(seconds, choice.click({ timeout: 0 }))
    const changed = isMissing(clicked) ? clicked : await within(seconds + 5, listChanged(page))
    run.changes.push(
      changed === null ? { missing: `no change within ${seconds} s` } : (changed as Figure),
    )
    if (isMissing(clicked)) {
      run.note = `the click on ${option} did not end within ${seconds} s`
      break
    }
    await within(left(), page.getByRole('listbox').waitFor({ state: 'hidden', timeout: 0 }))
  }
  return run
}

/** Types each of SEARCH_QUERIES into "Search topics", one key at a time: each key to the paint after the list changed. */
async function searchKeys(page: Page): Promise<Figure[] | 'not built'> {
  const field = page.getByLabel('Search topics')
  if ((await field.count()) === 0) return 'not built'
  await field.first().click()
  const keys: Figure[] = []
  for (const query of SEARCH_QUERIES) {
    await field.first().fill('')
    // The whole list back before the first key: its redraw is not the first key's.
    await page.waitForTimeout(500)
    for (const key of query) {
      await armListChange(page, 'keydown', LIMITS.searchKey)
      await page.keyboard.type(key)
      const changed = await within(LIMITS.searchKey + 5, listChanged(page))
      keys.push(changed === null ? { missing: 'no change' } : (changed as Figure))
    }
  }
  await field.first().fill('')
  return keys
}

/**
 * New pages in a context that has synced (data in IndexedDB, the service
 * worker installed): /topics to the first card, online or offline.
 */
async function coldStarts(context: BrowserContext, offline: boolean): Promise<ColdStarts> {
  const deadline = performance.now() + LIMITS.coldBudget * 1000
  const cards: Figure[] = []
  const appCards: Figure[] = []
  const paints: Figure[] = []
  let snapshots = 0
  await context.setOffline(offline)
  try {
    for (let i = 0; i < COLD_RUNS && performance.now() < deadline; i++) {
      const page = await context.newPage()
      try {
        await page.goto('/topics', { waitUntil: 'commit' })
        cards.push(await firstCard(page, LIMITS.coldStart))
        appCards.push(await firstCard(page, LIMITS.coldStart, true))
        if (await snapshotShown(page)) snapshots += 1
        const fcp = await within(10, firstContentfulPaint(page))
        paints.push(fcp)
      } finally {
        await page.close()
      }
    }
  } finally {
    await context.setOffline(false)
  }
  return {
    card: median(cards),
    appCard: median(appCards),
    fcp: median(paints),
    runs: cards.length,
    snapshots,
  }
}

/** A 360 px phone with 4× CPU throttling: first card of a first sync, then filter changes. */
async function phoneRow(browser: Browser, url: string, people: People): Promise<ScaleRun['phone']> {
  const context = await signedIn(browser, url, people.member.username, PHONE)
  try {
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
    const sync = await firstSync(page, people.member.id, LIMITS.phoneFirstCard, LIMITS.phoneSync)
    // During a first sync still running, opening the dropdown alone takes longer than the budget.
    const filter: FilterRun = isMissing(sync.end)
      ? { open: [], changes: [], note: 'not run: the first sync had not ended' }
      : await filterChanges(page, LIMITS.phoneFilterBudget, LOCATIONS.slice(0, 3))
    log(
      `  phone: card ${show(sync.firstCard)}, filter ${filter.changes.map((c) => show(c)).join(', ')}`,
    )
    return { firstCard: sync.firstCard, end: sync.end, filter }
  } finally {
    await context.close()
  }
}

/** JS bytes of a signed-in `/` and layout shift per page and viewport (small database only). */
async function measureSmallOnly(browser: Browser, url: string, people: People): Promise<SmallOnly> {
  const js = await signedIn(browser, url, people.member.username, DESKTOP)
  let scripts: SmallOnly['scripts']
  try {
    const page = await js.newPage()
    await page.goto('/')
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 60_000 })
    await page.waitForTimeout(2_000)
    scripts = await scriptBytes(page)
  } finally {
    await js.close()
  }
  const shifts: SmallOnly['shifts'] = []
  for (const [viewport, size] of [
    ['360×740', PHONE],
    ['1280×800', DESKTOP],
  ] as const) {
    const member = await signedIn(browser, url, people.member.username, size)
    try {
      const page = await member.newPage()
      await page.goto('/topics')
      await firstCard(page, 60)
      await syncEnd(page, people.member.id, 60)
      shifts.push({ viewport, page: '/topics (first visit)', cls: await settledShift(page) })
      await page.goto(`/topics/${people.topicId}`)
      await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 30_000 })
      shifts.push({ viewport, page: 'topic page', cls: await settledShift(page) })
      await page.goto('/dashboard')
      await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 30_000 })
      shifts.push({ viewport, page: '/dashboard (mentee)', cls: await settledShift(page) })
    } finally {
      await member.close()
    }
    const mentor = await signedIn(browser, url, people.mentor.username, size)
    try {
      const page = await mentor.newPage()
      await page.goto('/dashboard')
      await syncEnd(page, people.mentor.id, 60)
      shifts.push({
        viewport,
        page: '/dashboard (mentor, first visit)',
        cls: await settledShift(page),
      })
    } finally {
      await mentor.close()
    }
  }
  log(
    `  JS: ${scripts.count} scripts, ${scripts.encoded} bytes; CLS ${shifts.map((s) => s.cls.toFixed(3)).join(', ')}`,
  )
  return { scripts, shifts }
}

/** The page's layout shift once it has been still for 2 s. */
async function settledShift(page: Page): Promise<number> {
  await page.waitForTimeout(2_000)
  return layoutShift(page)
}

function show(value: unknown): string {
  if (isMissing(value)) return value.missing
  return typeof value === 'number' ? `${value.toFixed(0)} ms` : String(value)
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}

function log(line: string): void {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`)
}

await main()
