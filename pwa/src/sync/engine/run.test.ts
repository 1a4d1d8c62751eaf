import { describe, expect, it } from 'vitest'
import { ManualClock } from '../testing/harness.ts'
import { Abandoned, Run } from './run.ts'

describe('Run (the watchdog)', () => {
  it('abandons work that makes no progress for too long', async () => {
    const clock = new ManualClock()
    const run = new Run(clock, 1000)
    const hung = run.guard(new Promise(() => {}))
    clock.advance(999)
    expect(run.isAbandoned).toBe(false)
    clock.advance(1)
    await expect(hung).rejects.toBeInstanceOf(Abandoned)
    expect(run.signal.aborted).toBe(true)
    expect(() => run.check()).toThrow(Abandoned)
  })

  it('counts from the last progress, and lets finished work through', async () => {
    const clock = new ManualClock()
    const run = new Run(clock, 1000)
    clock.advance(900)
    run.progress()
    clock.advance(900)
    expect(run.isAbandoned).toBe(false)
    expect(await run.guard(Promise.resolve('done'))).toBe('done')
    run.dispose()
    expect(clock.pending).toBe(0)
  })
})
