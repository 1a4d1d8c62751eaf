import type { Fetched } from './live-browser.ts'

// The figures of `npm run bench:live`, each beside its target (issue 20):
// p50 ≤ 3× the floor's p50 and max ≤ 5× the floor's max, the floor being the
// protocol's own work measured from Node in the same run.

/** One run, in ms: the floor's parts, and each observation counted from the click. */
export type Run = {
  floor: { write: number; pull: number }
  dashboard: number
  phone: number
  push: number
  /** The mentor's page: poke arrived, its pull started and was answered. */
  poke: number
  pullStart: number
  pullEnd: number
  /** Device A's page: its push of the change started and was answered. */
  pushStart: number
  pushEnd: number
  /** The two requests' parts (undefined when the page saw none after the click). */
  parts: { push: Fetched | undefined; pull: Fetched | undefined }
}

const P50_FACTOR = 3
const MAX_FACTOR = 5

function percentile(values: number[], p: number): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? Number.NaN
}
const p50 = (values: number[]) => percentile(values, 0.5)
const max = (values: number[]) => percentile(values, 1)
const ms = (value: number) => `${value.toFixed(1).padStart(6)} ms`

/** Prints the floor, the three observations against their targets, and the dashboard's timeline. */
export function report(runs: Run[]): { met: boolean } {
  const floors = runs.map((r) => r.floor.write + r.floor.pull)
  const floorP50 = p50(floors)
  const floorMax = max(floors)
  console.log(
    `Protocol floor from Node (apply round trip + the mentor's delta pull), ${runs.length} runs:`,
  )
  console.log(`  apply round trip  p50 ${ms(p50(runs.map((r) => r.floor.write)))}`)
  console.log(`  delta pull        p50 ${ms(p50(runs.map((r) => r.floor.pull)))}`)
  console.log(`  floor             p50 ${ms(floorP50)}   max ${ms(floorMax)}\n`)

  console.log(
    `Click on device A → seen elsewhere   p50 (target ≤ ${ms(P50_FACTOR * floorP50)})` +
      `   max (target ≤ ${ms(MAX_FACTOR * floorMax)})`,
  )
  let met = true
  const rows: [string, number[]][] = [
    ["mentor's open dashboard (B)     ", runs.map((r) => r.dashboard)],
    ["mentee's own second device      ", runs.map((r) => r.phone)],
    ["push at the mentor's push service", runs.map((r) => r.push)],
  ]
  for (const [label, values] of rows) {
    const mid = p50(values)
    const top = max(values)
    const ok = mid <= P50_FACTOR * floorP50 && top <= MAX_FACTOR * floorMax
    met &&= ok
    console.log(
      `  ${label} ${ms(mid)} = ${(mid / floorP50).toFixed(1)}× floor` +
        `   ${ms(top)} = ${(top / floorMax).toFixed(1)}× floor max   ${ok ? 'met' : 'NOT MET'}`,
    )
  }
  const at = (pick: (r: Run) => number) => ms(p50(runs.map(pick)))
  console.log(
    `\nTimeline (p50 from the click): A sends its push ${at((r) => r.pushStart)}, answered ${at((r) => r.pushEnd)};` +
      ` B's poke arrives ${at((r) => r.poke)}, its pull starts ${at((r) => r.pullStart)},` +
      ` is answered ${at((r) => r.pullEnd)}, on screen ${at((r) => r.dashboard)}`,
  )
  for (const [name, pick] of [
    ["A's push", (r: Run) => r.parts.push],
    ["B's pull", (r: Run) => r.parts.pull],
  ] as const) {
    const part = (key: 'toSend' | 'wait' | 'body') =>
      ms(p50(runs.map((r) => pick(r)?.[key] ?? Number.NaN)))
    console.log(
      `  ${name} (p50): to its first byte sent ${part('toSend')}, server ${part('wait')}, answer ${part('body')}`,
    )
  }
  return { met }
}
