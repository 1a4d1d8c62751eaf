import { afterAll, expect, it } from 'vitest'
import { baseUrl } from './browser.ts'
import { missingEngine, stopDisplay } from './engines.ts'
import { percentile, runWedgeLoop } from './webkit-wedge.ts'

// The WebKit wedge (decision 0024), a bounded count: fresh WebKitGTK
// sessions each sign in on the landing page (where the app, seeing the
// session, starts creating its database) and load /dashboard at once with a
// full page load, which puts the landing page into the back/forward cache
// mid-way. Before the fix, "Topics I Mentor" stayed loading in about one
// session in ten. `npm run loop:webkit-wedge` runs 200.

const SESSIONS = Number(process.env.WEDGE_SESSIONS ?? 10)

afterAll(() => stopDisplay())

it(`loads the dashboard in ${SESSIONS} fresh WebKit sessions, none of them wedged`, async () => {
  const missing = missingEngine('webkit')
  if (missing) throw new Error(`Cannot run the WebKit loop: ${missing}`)
  const result = await runWedgeLoop(baseUrl(), SESSIONS, 'admin', (line) => console.log(line))
  console.log(
    `WebKit wedge loop: ${result.wedged} of ${result.sessions} wedged; dashboard load median ` +
      `${percentile(result.loadMs, 50)} ms, max ${percentile(result.loadMs, 100)} ms`,
  )
  expect(result.sessions).toBe(SESSIONS)
  expect(result.wedged).toBe(0)
}, 600_000)
