import { describe, expect, it } from 'vitest'
import { backoffDelay, DEFAULT_BACKOFF } from './backoff.ts'

describe('backoffDelay', () => {
  it('doubles the range with each attempt, up to the cap', () => {
    const top = (attempt: number) => backoffDelay(attempt, () => 0.999_999)
    expect([0, 1, 2, 3].map(top)).toEqual([999, 1999, 3999, 7999])
    expect(top(20)).toBe(DEFAULT_BACKOFF.maxMs - 1)
    expect(top(10_000)).toBe(DEFAULT_BACKOFF.maxMs - 1)
  })

  it('spreads delays over the whole range (full jitter), never below the floor', () => {
    expect(backoffDelay(3, () => 0.5)).toBe(4000)
    expect(backoffDelay(3, () => 0)).toBe(DEFAULT_BACKOFF.minMs)
    expect(backoffDelay(0, () => 0.1)).toBe(DEFAULT_BACKOFF.minMs)
  })

  it('takes its own limits', () => {
    expect(backoffDelay(5, () => 0.5, { baseMs: 10, maxMs: 100, minMs: 1 })).toBe(50)
  })
})
