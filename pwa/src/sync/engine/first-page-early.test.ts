import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { PULL_LIMIT_DEFAULT } from '../../../../shared/sync.ts'
import { askFirstPageEarly, holdsFirstPageEarly, takeFirstPageEarly } from './first-page-early.ts'
import { pullPath } from './page.ts'

// The first pull page asked for as the session check names someone new to the
// device: taken once by that person's first sync, never by anyone else's.

const FIRST_PAGE = pullPath(undefined, PULL_LIMIT_DEFAULT)

/** The requests made, each with its abort signal; the stubbed fetch answers each with its path. */
let asked: { path: string; signal: AbortSignal }[]

beforeEach(() => {
  asked = []
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    const signal = init.signal as AbortSignal
    asked.push({ path: url, signal })
    return Promise.resolve(
      new Response(JSON.stringify({ path: url }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    )
  })
})

afterEach(() => {
  // Nothing held over into the next test.
  takeFirstPageEarly('', '')
  vi.unstubAllGlobals()
})

describe('the first page asked for early', () => {
  it('asks for the first pull page and who is asking, and is taken once by the same person', async () => {
    expect(holdsFirstPageEarly('ana')).toBe(false)
    askFirstPageEarly('ana')
    expect(asked.map((a) => a.path)).toEqual([FIRST_PAGE, '/api/user'])
    // The engine shows it at once when it is held for its person (engine.ts), else it asks.
    expect(holdsFirstPageEarly('ana')).toBe(true)
    expect(holdsFirstPageEarly('ben')).toBe(false)
    const early = takeFirstPageEarly('ana', FIRST_PAGE)
    expect(holdsFirstPageEarly('ana')).toBe(false)
    expect(early).not.toBeNull()
    expect((await early?.answer)?.body).toEqual({ path: FIRST_PAGE })
    expect((await early?.identity)?.body).toEqual({ path: '/api/user' })
    expect(early?.abort.signal.aborted).toBe(false)
    expect(takeFirstPageEarly('ana', FIRST_PAGE)).toBeNull()
  })

  it('is let go, not given, to someone else or for another page size', () => {
    askFirstPageEarly('ana')
    expect(takeFirstPageEarly('ben', FIRST_PAGE)).toBeNull()
    expect(asked.every((a) => a.signal.aborted)).toBe(true)
    expect(takeFirstPageEarly('ana', FIRST_PAGE)).toBeNull()

    askFirstPageEarly('ana')
    expect(takeFirstPageEarly('ana', pullPath(undefined, 50))).toBeNull()
  })

  it('asked for again, lets the one before go', () => {
    askFirstPageEarly('ana')
    const first = asked.slice()
    askFirstPageEarly('ben')
    expect(first.every((a) => a.signal.aborted)).toBe(true)
    expect(takeFirstPageEarly('ben', FIRST_PAGE)).not.toBeNull()
  })

  it('is let go when nobody takes it within 30 s', async () => {
    // A server that has not answered yet: letting go aborts the requests.
    vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
      asked.push({ path: url, signal: init.signal as AbortSignal })
      return new Promise(() => {})
    })
    vi.useFakeTimers()
    try {
      askFirstPageEarly('ana')
      await vi.advanceTimersByTimeAsync(29_000)
      expect(asked.some((a) => a.signal.aborted)).toBe(false)
      await vi.advanceTimersByTimeAsync(1_000)
      expect(asked.every((a) => a.signal.aborted)).toBe(true)
      expect(takeFirstPageEarly('ana', FIRST_PAGE)).toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })
})
