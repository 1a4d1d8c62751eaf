import { describe, expect, it } from 'vitest'
import { INITIAL_STATUS, StatusStore } from './status.ts'

describe('StatusStore', () => {
  it('answers the same object until something changes, and tells subscribers', () => {
    const store = new StatusStore()
    const seen: number[] = []
    const unsubscribe = store.subscribe(() => seen.push(store.get().pendingCount))
    const before = store.get()
    expect(before).toEqual(INITIAL_STATUS)
    store.update({ pendingCount: 0, online: true })
    expect(store.get()).toBe(before)
    store.update({ pendingCount: 2 })
    expect(store.get()).not.toBe(before)
    expect(store.get()).toMatchObject({ pendingCount: 2, online: true })
    unsubscribe()
    store.update({ pendingCount: 3 })
    expect(seen).toEqual([2])
  })
})
