import { afterAll, describe, expect, it } from 'vitest'
import { uniqueName } from './app.ts'
import { baseUrl } from './browser.ts'
import { missingEngine, stopDisplay } from './engines.ts'
import { approvedTopicFor } from './engines-api.ts'
import { runWedgeLoop } from './webkit-wedge.ts'

// A bounded run of the WebKit wedge loop (npm run loop:webkit-wedge runs 200):
// fresh WebKit sessions loading /dashboard with a full page load, each of
// which must show "Topics I Mentor" loaded.

afterAll(stopDisplay)

describe('WebKit loading /dashboard in fresh sessions', () => {
  it('loads Topics I Mentor every time', async () => {
    const missing = missingEngine('webkit')
    if (missing) throw new Error(`Cannot run WebKit: ${missing}`)
    const mentor = uniqueName('wedge-mentor')
    await approvedTopicFor(mentor, uniqueName('Wedge topic'))
    const result = await runWedgeLoop(baseUrl(), 4, mentor)
    expect(result).toMatchObject({ sessions: 4, wedged: 0 })
  }, 240_000)
})
