import { SHOWS_TEXT, SIGN_IN, waitInPage } from './engine-steps.ts'
import { openWebKit } from './engines.ts'

/** How long "Topics I Mentor" may take to load before a session counts as wedged. */
export const WEDGE_AFTER_MS = 30_000

/** "Topics I Mentor" shows its list or its empty state (not the spinner). */
const MY_TOPICS_LOADED = `() => {
  const section = document.querySelector('section[aria-labelledby="my-topics-heading"]')
  return !!section && (!!section.querySelector('ul') || section.textContent.includes("You haven't created"))
}`

export type WedgeLoopResult = { sessions: number; wedged: number; loadMs: number[] }

/**
 * The reproduction of the WebKit wedge: `sessions` fresh WebKitGTK sessions
 * (own driver, own storage) each sign in as `username` and load /dashboard
 * with a full page load; a session whose "Topics I Mentor" has not loaded
 * within WEDGE_AFTER_MS is wedged. One session at a time.
 */
export async function runWedgeLoop(
  base: string,
  sessions: number,
  username: string,
  log: (line: string) => void = () => {},
): Promise<WedgeLoopResult> {
  const result: WedgeLoopResult = { sessions: 0, wedged: 0, loadMs: [] }
  for (let i = 0; i < sessions; i += 1) {
    const page = await openWebKit()
    try {
      await page.goto(`${base}/`)
      const status = await page.run<number>(SIGN_IN, username)
      if (status !== 200) throw new Error(`dev-login as ${username} answered ${status}`)
      const t0 = performance.now()
      await page.goto(`${base}/dashboard`)
      try {
        await waitInPage(page, 'Topics I Mentor loaded', MY_TOPICS_LOADED, [], WEDGE_AFTER_MS)
        result.loadMs.push(Math.round(performance.now() - t0))
      } catch {
        result.wedged += 1
        log(`session ${i + 1}: wedged (Topics I Mentor still loading after ${WEDGE_AFTER_MS} ms)`)
      }
      result.sessions += 1
      if (await page.run<boolean>(SHOWS_TEXT, 'Something went wrong while showing this screen')) {
        throw new Error(`session ${i + 1}: the dashboard shows an error screen`)
      }
    } finally {
      await page.close()
    }
    if ((i + 1) % 20 === 0) log(`${i + 1}/${sessions} sessions, ${result.wedged} wedged`)
  }
  return result
}

/** The p-th percentile (0..100) of `values`, or 0 when there are none. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}
