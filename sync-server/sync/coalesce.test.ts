import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Coalescer } from './coalesce.ts'

const OPTIONS = { coalesceMs: 150, maxCoalesceMs: 1_000 }

describe('Coalescer', () => {
  let sent: number[]
  let pokes: Coalescer
  beforeEach(() => {
    vi.useFakeTimers()
    sent = []
    pokes = new Coalescer(() => sent.push(Date.now()), OPTIONS)
  })
  afterEach(() => {
    pokes.stop()
    vi.useRealTimers()
  })

  it('sends the first change of a quiet period at once, before any timer runs', () => {
    const start = Date.now()
    pokes.trigger()
    expect(sent).toEqual([start])
  })

  it('sends the changes of one window together when it ends', () => {
    const start = Date.now()
    pokes.trigger()
    vi.advanceTimersByTime(10)
    pokes.trigger()
    pokes.trigger()
    pokes.trigger()
    expect(sent).toHaveLength(1)
    vi.advanceTimersByTime(140)
    expect(sent).toEqual([start, start + 150])
  })

  it('sends nothing more when a window ends without changes, and the next change goes at once', () => {
    pokes.trigger()
    vi.advanceTimersByTime(500)
    expect(sent).toHaveLength(1)
    expect(pokes.waiting).toBe(false)
    const later = Date.now()
    pokes.trigger()
    expect(sent.at(-1)).toBe(later)
  })

  it('doubles the window while changes keep coming, up to the maximum', () => {
    const start = Date.now()
    // A change every 10 ms for 5 s.
    for (let t = 0; t < 5_000; t += 10) {
      pokes.trigger()
      vi.advanceTimersByTime(10)
    }
    vi.advanceTimersByTime(2_000)
    const gaps = sent.slice(1).map((at, i) => at - (sent[i] ?? 0))
    expect(sent[0]).toBe(start)
    expect(gaps).toEqual([150, 300, 600, 1_000, 1_000, 1_000, 1_000])
    // 500 changes, 8 pokes: the last one after the last change.
    expect(sent.at(-1)).toBeGreaterThanOrEqual(start + 4_990)
  })

  it('sends a change after a pause at once, but keeps the windows growing through the cool-down', () => {
    const start = Date.now()
    pokes.trigger()
    // The first window (150 ms) ends empty; 50 ms into the cool-down, another change.
    vi.advanceTimersByTime(200)
    pokes.trigger()
    expect(sent).toEqual([start, start + 200])
    // Its window is 300 ms: a change meanwhile goes out when it ends.
    vi.advanceTimersByTime(10)
    pokes.trigger()
    vi.advanceTimersByTime(290)
    expect(sent).toEqual([start, start + 200, start + 500])
  })

  it('starts again from the shortest window after a quiet period', () => {
    for (let t = 0; t < 1_000; t += 10) {
      pokes.trigger()
      vi.advanceTimersByTime(10)
    }
    vi.advanceTimersByTime(3_000)
    const before = sent.length
    const start = Date.now()
    pokes.trigger()
    vi.advanceTimersByTime(10)
    pokes.trigger()
    vi.advanceTimersByTime(200)
    expect(sent.slice(before)).toEqual([start, start + 150])
  })

  it('sends nothing once stopped', () => {
    pokes.trigger()
    pokes.trigger()
    pokes.stop()
    vi.advanceTimersByTime(1_000)
    expect(sent).toHaveLength(1)
    expect(pokes.waiting).toBe(false)
  })
})
