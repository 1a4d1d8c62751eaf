import { describe, expect, it } from 'vitest'
import { memoryLock } from './lock.ts'

describe('memoryLock', () => {
  it('runs holders of one name one at a time, in order', async () => {
    const lock = memoryLock()
    const events: string[] = []
    const hold = (name: string, id: string) =>
      lock(name, async () => {
        events.push(`${id} in`)
        await new Promise((r) => setTimeout(r, 1))
        events.push(`${id} out`)
        return id
      })
    expect(await Promise.all([hold('a', '1'), hold('a', '2'), hold('b', '3')])).toEqual([
      '1',
      '2',
      '3',
    ])
    expect(events.indexOf('2 in')).toBeGreaterThan(events.indexOf('1 out'))
    expect(events.indexOf('3 in')).toBeLessThan(events.indexOf('1 out'))
  })

  it('lets go after a holder throws, and lets a waiter give up', async () => {
    const lock = memoryLock()
    await expect(lock('a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    let release = () => {}
    const holding = lock('a', () => new Promise<void>((r) => (release = r)))
    const controller = new AbortController()
    const waiting = lock('a', async () => 'never', controller.signal)
    controller.abort(new Error('gave up'))
    await expect(waiting).rejects.toThrow('gave up')
    const next = lock('a', async () => 'next')
    release()
    await holding
    expect(await next).toBe('next')
  })
})
