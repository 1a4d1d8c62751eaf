import {
  type Figure,
  type Floor,
  isMissing,
  type Missing,
  type PullTiming,
  type Scroll,
  type StoreFloor,
} from './client-page.ts'

// The table `npm run bench:client` prints: each figure for the small and the
// company database side by side, their ratio, the target and whether the
// company figure meets it. Markdown, so it pastes into docs/performance.md.

export type FirstSync = {
  /** ms from navigation to the frame after the first topic card. */
  firstCard: Figure
  /** ms from navigation to the last page's transaction (the `lastSyncedAt` it wrote). */
  end: Figure
  /** ms from navigation until a poll of IndexedDB read `lastSyncedAt`. */
  seen: Figure
  pulls: PullTiming[]
  /** Long tasks from navigation to the sync's end. */
  longTasks: { count: number; ms: number } | Missing
}
export type FilterRun = { open: Figure[]; changes: Figure[]; note?: string }
/**
 * `card`: the first card on screen (a return visit's snapshot's, decision 0050, or the
 * app's own); `appCard`: the app's own, drawn from IndexedDB; `snapshots`: runs that
 * showed a snapshot.
 */
export type ColdStarts = {
  card: Figure
  appCard: Figure
  fcp: Figure
  runs: number
  snapshots: number
}
type Rest = { nodes: number; heap: number; cards: number }

export type ScaleRun = {
  users: number
  firstSync: FirstSync
  floor: Floor | Missing
  /** The same pages' rows put with plain IndexedDB as they come: no target, the platform's share. */
  storeFloor: StoreFloor | Missing
  rest: Rest | Missing
  filter: FilterRun
  search: Figure[] | 'not built'
  /** The app's user timings: each recommendation computed, and each first-places computation. */
  matching: { recommend: number[]; firstPlaces: number[] } | Missing
  scroll: Scroll | Missing
  /** The fastest fling of a phone, after `scroll`, over rows not drawn yet where there are any. */
  fling: Scroll | Missing
  coldOnline: ColdStarts
  coldOffline: ColdStarts
  phone: { firstCard: Figure; end: Figure; filter: FilterRun } | undefined
}

export type SmallOnly = {
  scripts: { count: number; encoded: number; decoded: number; transfer: number }
  shifts: { viewport: string; page: string; cls: number }[]
}

/**
 * A fling at the fastest a phone scrolls: Android caps a fling at 8,000 dp/s
 * (ViewConfiguration's maximum fling velocity), 133 CSS px a frame at 60 Hz.
 * The 800 px a frame of the scroll above is six times that.
 */
export const FLING = { steps: 240, px: 133 } as const

type Cell = string
type Row = [figure: Cell, small: Cell, company: Cell, ratio: Cell, target: Cell, verdict: Cell]

export function printReport(
  small: ScaleRun,
  company: ScaleRun,
  only: SmallOnly,
  phone: boolean,
): void {
  const rows: Row[] = []
  const add = (
    figure: string,
    pick: (run: ScaleRun) => Figure,
    format: (n: number) => string,
    target = '',
    meets?: (companyValue: number, smallValue: number | undefined) => boolean,
  ) => {
    const s = pick(small)
    const c = pick(company)
    const verdict = meets && typeof c === 'number' ? (meets(c, num(s)) ? 'met' : '**not met**') : ''
    rows.push([figure, cell(s, format), cell(c, format), ratio(c, s), target, verdict])
  }
  const pulls = (run: ScaleRun) => run.firstSync.pulls
  const floorOf = (run: ScaleRun) => (isMissing(run.floor) ? run.floor : run.floor.ms)
  const restOf =
    <K extends keyof Rest>(key: K) =>
    (run: ScaleRun) =>
      isMissing(run.rest) ? run.rest : run.rest[key]
  const scrollOf = (key: keyof Scroll) => (run: ScaleRun) =>
    isMissing(run.scroll) ? run.scroll : run.scroll[key]

  add(
    'First card, fresh profile, /topics',
    (r) => r.firstSync.firstCard,
    ms,
    '≤ 1 s',
    (c) => c <= 1000,
  )
  add('First pull request starts', (r) => first(pulls(r), 'start'), ms)
  add('Last pull page answered', (r) => last(pulls(r), 'end'), ms)
  add('First sync ends (`lastSyncedAt` written)', (r) => r.firstSync.end, ms)
  add('… seen by a 250 ms poll of IndexedDB', (r) => r.firstSync.seen, ms)
  add('Fetch-only floor (same pull pages, same context)', floorOf, ms)
  rows.push([
    'Sync end (from navigation) ÷ fetch floor',
    times(small.firstSync.end, floorOf(small)),
    times(company.firstSync.end, floorOf(company)),
    '',
    '≤ 3×',
    verdictOf(company.firstSync.end, floorOf(company), (a, b) => a <= 3 * b),
  ])
  const storeOf = (run: ScaleRun) =>
    isMissing(run.storeFloor) ? run.storeFloor : run.storeFloor.ms
  add('Fetch-and-store floor (the same rows put with plain IndexedDB)', storeOf, ms)
  rows.push([
    'Sync end (from navigation) ÷ fetch-and-store floor',
    times(small.firstSync.end, storeOf(small)),
    times(company.firstSync.end, storeOf(company)),
    '',
    '',
    '',
  ])
  const pullPhase = (run: ScaleRun): Figure => {
    const start = first(pulls(run), 'start')
    const end = run.firstSync.end
    return typeof start === 'number' && typeof end === 'number' ? end - start : end
  }
  add('First pull start → sync end', pullPhase, ms)
  rows.push([
    '(First pull start → sync end) ÷ fetch floor',
    times(pullPhase(small), floorOf(small)),
    times(pullPhase(company), floorOf(company)),
    '',
    '',
    '',
  ])
  const inRequests = (run: ScaleRun): Figure =>
    pulls(run).length === 0 ? missing : pulls(run).reduce((a, p) => a + p.end - p.start, 0)
  const between = (run: ScaleRun): Figure => {
    const phase = pullPhase(run)
    const requests = inRequests(run)
    return typeof phase === 'number' && typeof requests === 'number' ? phase - requests : phase
  }
  add('… of which waiting for pull answers (sum)', inRequests, ms)
  add('… of which between answer and next request (write, render)', between, ms)
  add(
    'Long tasks from navigation to sync end (total)',
    (r) => (isMissing(r.firstSync.longTasks) ? r.firstSync.longTasks : r.firstSync.longTasks.ms),
    ms,
  )
  rows.push([
    'Pull pages: count, bytes on the wire (decoded), encoding',
    pullBytes(small),
    pullBytes(company),
    ratio(sum(pulls(company), 'encoded'), sum(pulls(small), 'encoded')),
    'compressed',
    encodingOf(company).some((e) => e === 'br' || e === 'gzip') ? 'met' : '**not met**',
  ])
  add('DOM elements at rest', restOf('nodes'), count, '≤ 3,000', (c) => c <= 3000)
  add('Topic cards in the DOM', restOf('cards'), count)
  add('JS heap used after gc', restOf('heap'), mb, '≤ 80 MB', (c) => c <= 80 * 1024 * 1024)
  add('Location dropdown opens (from Node, median)', (r) => median(r.filter.open), ms)
  rows.push([
    'Filter change → paint, median / max (changes)',
    latency(small.filter.changes, small.filter.note),
    latency(company.filter.changes, company.filter.note),
    ratio(median(company.filter.changes), median(small.filter.changes)),
    '≤ 100 ms',
    verdictOf(median(company.filter.changes), 100, (a, b) => a <= b),
  ])
  rows.push([
    'Search keystroke → paint, median / max (keys)',
    small.search === 'not built' ? 'not built' : latency(small.search),
    company.search === 'not built' ? 'not built' : latency(company.search),
    '',
    '≤ 50 ms',
    company.search === 'not built' ? '' : verdictOf(max(company.search), 50, (a, b) => a <= b),
  ])
  rows.push([
    'Recommendations on the device: median / p95 / max (computations)',
    matchingCell(small, 'recommend'),
    matchingCell(company, 'recommend'),
    '',
    '≤ 50 ms p95',
    isMissing(company.matching) || company.matching.recommend.length === 0
      ? ''
      : verdictOf(p95(company.matching.recommend), 50, (a, b) => a <= b),
  ])
  rows.push([
    '… first places of everyone (once per data change): median / p95 / max',
    matchingCell(small, 'firstPlaces'),
    matchingCell(company, 'firstPlaces'),
    '',
    '',
    '',
  ])
  rows.push([
    'Scroll 40 × 800 px: frames > 16.7 ms / > 50 ms (of frames), longest',
    frames(small.scroll),
    frames(company.scroll),
    '',
    '60 fps',
    isMissing(company.scroll) ? '' : company.scroll.over16 === 0 ? 'met' : '**not met**',
  ])
  add('… long tasks while scrolling (total)', scrollOf('longTaskMs'), ms)
  rows.push([
    `Fling ${FLING.steps} × ${FLING.px} px (8,000 px/s, a phone's fastest): frames > 16.7 ms / > 50 ms (of frames), longest`,
    frames(small.fling),
    frames(company.fling),
    '',
    '60 fps',
    isMissing(company.fling) ? '' : company.fling.over16 === 0 ? 'met' : '**not met**',
  ])
  add('Cold start online, first card on screen (median)', (r) => r.coldOnline.card, ms)
  add("… the app's own first card, from IndexedDB (median)", (r) => r.coldOnline.appCard, ms)
  add(
    'Cold start offline, first card on screen (median)',
    (r) => r.coldOffline.card,
    ms,
    '≤ 2× small; small ≤ 300 ms',
    (c, s) => s !== undefined && c <= 2 * s && s <= 300,
  )
  add("… the app's own first card, from IndexedDB (median)", (r) => r.coldOffline.appCard, ms)
  add('Cold start offline, first contentful paint', (r) => r.coldOffline.fcp, ms)
  if (phone) {
    add(
      'Phone 360 px, 4× CPU: first card',
      (r) => r.phone?.firstCard ?? missing,
      ms,
      '≤ 1 s',
      (c) => c <= 1000,
    )
    add('Phone 360 px, 4× CPU: first sync ends', (r) => r.phone?.end ?? missing, ms)
    rows.push([
      'Phone 360 px, 4× CPU: filter change → paint',
      latency(small.phone?.filter.changes ?? [], small.phone?.filter.note),
      latency(company.phone?.filter.changes ?? [], company.phone?.filter.note),
      '',
      '≤ 100 ms',
      verdictOf(median(company.phone?.filter.changes ?? []), 100, (a, b) => a <= b),
    ])
  }

  const topics = (run: ScaleRun) =>
    `${run.users.toLocaleString('en')} users (${(run.users * 2).toLocaleString('en')} topics)`
  printTable(
    ['Figure', topics(small), topics(company), 'company ÷ small', 'Target', 'Company'],
    rows,
  )
  console.log(
    `\nCold starts: ${small.coldOnline.runs}/${small.coldOffline.runs} runs (online/offline) small, ` +
      `${company.coldOnline.runs}/${company.coldOffline.runs} company. Runs that showed the ` +
      `screen's snapshot first (decision 0050), online/offline: ` +
      `${small.coldOnline.snapshots}/${small.coldOffline.snapshots} small, ` +
      `${company.coldOnline.snapshots}/${company.coldOffline.snapshots} company.\n`,
  )

  const js = only.scripts
  const shiftRows: Row[] = [
    [
      'JS for a signed-in `/` (scripts, compressed / decoded)',
      `${js.count} scripts, ${kib(js.encoded)} / ${kib(js.decoded)}`,
      '',
      '',
      '≤ 120 KiB',
      js.encoded <= 120 * 1024 ? 'met' : '**not met**',
    ],
    ...only.shifts.map(
      (s): Row => [
        `CLS ${s.page}`,
        s.viewport,
        s.cls.toFixed(3),
        '',
        '≤ 0.02',
        s.cls <= 0.02 ? 'met' : '**not met**',
      ],
    ),
  ]
  printTable(['Small database only', 'Viewport / figure', 'Value', '', 'Target', ''], shiftRows)
}

const missing: Missing = { missing: 'not run' }

function printTable(header: string[], rows: Row[]): void {
  const all = [header, ...rows]
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)))
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`
  console.log(line(header))
  console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`)
  for (const r of rows) console.log(line(r))
}

function num(f: Figure): number | undefined {
  return typeof f === 'number' && Number.isFinite(f) ? f : undefined
}

function cell(f: Figure, format: (n: number) => string): string {
  return isMissing(f) ? f.missing : format(f)
}

function ratio(a: Figure, b: Figure): string {
  const x = num(a)
  const y = num(b)
  return x === undefined || y === undefined || y === 0 ? '' : `${(x / y).toFixed(1)}×`
}

function times(a: Figure, b: Figure): string {
  return ratio(a, b) || (isMissing(a) ? a.missing : '')
}

function verdictOf(a: Figure, b: Figure, ok: (a: number, b: number) => boolean): string {
  const x = num(a)
  const y = num(b)
  if (x === undefined || y === undefined) return ''
  return ok(x, y) ? 'met' : '**not met**'
}

function ms(n: number): string {
  return n < 10_000 ? `${n.toFixed(0)} ms` : `${(n / 1000).toFixed(1)} s`
}

function count(n: number): string {
  return n.toLocaleString('en')
}

function mb(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MB`
}

function bytes(n: number): string {
  return n < 1024 * 1024 ? kib(n) : mb(n)
}

function kib(n: number): string {
  return `${(n / 1024).toFixed(1)} KiB`
}

function sum(list: PullTiming[], key: keyof PullTiming): number {
  return list.reduce((a, p) => a + p[key], 0)
}

function first(list: PullTiming[], key: keyof PullTiming): Figure {
  return list.length === 0 ? { missing: 'no pulls seen' } : Math.min(...list.map((p) => p[key]))
}

function last(list: PullTiming[], key: keyof PullTiming): Figure {
  return list.length === 0 ? { missing: 'no pulls seen' } : Math.max(...list.map((p) => p[key]))
}

function encodingOf(run: ScaleRun): string[] {
  return isMissing(run.floor) ? [] : run.floor.encodings
}

function pullBytes(run: ScaleRun): string {
  const list = run.firstSync.pulls
  if (list.length === 0) return 'no pulls seen'
  const wire = sum(list, 'encoded')
  const plain = sum(list, 'decoded')
  return `${list.length}, ${bytes(wire)} (${bytes(plain)}), ${encodingOf(run).join('+') || '?'}`
}

export function median(values: Figure[]): Figure {
  const numbers = values.filter((v): v is number => typeof v === 'number').sort((a, b) => a - b)
  if (numbers.length === 0) return values.find(isMissing) ?? missing
  return numbers[Math.floor(numbers.length / 2)] ?? Number.NaN
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? Number.NaN
}

function matchingCell(run: ScaleRun, key: 'recommend' | 'firstPlaces'): string {
  if (isMissing(run.matching)) return run.matching.missing
  const values = run.matching[key]
  if (values.length === 0) return 'none computed'
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
  return `${ms(middle)} / ${ms(p95(values))} / ${ms(Math.max(...values))} (${values.length})`
}

function max(values: Figure[]): Figure {
  const numbers = values.filter((v): v is number => typeof v === 'number')
  return numbers.length === 0 ? (values.find(isMissing) ?? missing) : Math.max(...numbers)
}

function latency(values: Figure[], note?: string): string {
  const m = median(values)
  const top = max(values)
  if (values.length === 0 && note) return note
  const missed = values.filter(isMissing).length
  const base = isMissing(m)
    ? m.missing
    : `${ms(m)} / ${cell(top, ms)} (${values.length}${missed ? `, ${missed} missing` : ''})`
  return note ? `${base}; ${note}` : base
}

function frames(scroll: Scroll | Missing): string {
  if (isMissing(scroll)) return scroll.missing
  return `${scroll.over16} / ${scroll.over50} (of ${scroll.frames}), ${ms(scroll.longest)}`
}
