import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { shareEqual } from './share.ts'

describe('shareEqual', () => {
  it('keeps the unchanged rows as the objects answered before, and only those', () => {
    const before = [
      { topic: { id: 't1', subject: 'A' }, applications: [{ id: 'a1', status: 'pending' }] },
      { topic: { id: 't2', subject: 'B' }, applications: [] },
    ]
    const after = shareEqual(before, [
      { topic: { id: 't1', subject: 'A' }, applications: [{ id: 'a1', status: 'accepted' }] },
      { topic: { id: 't2', subject: 'B' }, applications: [] },
    ])
    expect(after).not.toBe(before)
    expect(after[0]).not.toBe(before[0])
    expect(after[0]?.topic).toBe(before[0]?.topic)
    expect(after[0]?.applications[0]).toEqual({ id: 'a1', status: 'accepted' })
    expect(after[1]).toBe(before[1])
  })

  it('answers the previous value itself when nothing differs', () => {
    const before = { rows: [{ id: 1, tags: ['x'] }], count: 1 }
    expect(shareEqual(before, { rows: [{ id: 1, tags: ['x'] }], count: 1 })).toBe(before)
  })

  it('sees added, removed and reordered rows and keys', () => {
    const one = { id: 1 }
    const two = { id: 2 }
    const before = [one, two]
    const added = shareEqual(before, [{ id: 1 }, { id: 2 }, { id: 3 }])
    expect(added).not.toBe(before)
    expect(added[0]).toBe(one)
    const removed = shareEqual(before, [{ id: 1 }])
    expect(removed).toEqual([{ id: 1 }])
    expect(removed).not.toBe(before)
    const swapped = shareEqual(before, [{ id: 2 }, { id: 1 }])
    expect(swapped).toEqual([{ id: 2 }, { id: 1 }])
    expect(swapped).not.toBe(before)
    // A key gone and another come, the same count of keys.
    expect(shareEqual({ a: 1 }, { b: 1 } as Record<string, number>)).toEqual({ b: 1 })
    // A key present with undefined is not the key missing.
    const previous: Record<string, undefined> = { b: undefined }
    const shared = shareEqual(previous, { a: undefined } as Record<string, undefined>)
    expect(shared).not.toBe(previous)
    expect(Object.keys(shared)).toEqual(['a'])
  })

  it('keeps other objects only when they are the same object', () => {
    const date = new Date(0)
    expect(shareEqual(new Date(0), date)).toBe(date)
    const map = new Map([[1, 1]])
    expect(shareEqual({ m: new Map([[1, 1]]) }, { m: map }).m).toBe(map)
    expect(shareEqual(undefined, [1])).toEqual([1])
    expect(shareEqual([1], { 0: 1 })).toEqual({ 0: 1 })
  })

  it('keeps a key named __proto__ as a property (a counterexample fast-check found)', () => {
    const next = JSON.parse('{"__proto__":{}}')
    const shared = shareEqual({}, next)
    expect(Object.getPrototypeOf(shared)).toBe(Object.prototype)
    expect(Object.hasOwn(shared, '__proto__')).toBe(true)
    expect(shared).toEqual(next)
    expect(shareEqual(JSON.parse('{"__proto__":{"a":1}}'), next)).toEqual(next)
  })

  it('always answers a value deep-equal to the new one (fast-check)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (previous, next) => {
        const shared = shareEqual(previous, next)
        expect(shared).toEqual(next)
        if (JSON.stringify(previous) === JSON.stringify(next)) expect(shared).toBe(previous)
      }),
      { numRuns: 500 },
    )
  })
})
