import { describe, expect, it } from 'vitest'
import {
  forgetSnapshots,
  MAX_SNAPSHOT_CHARS,
  MAX_SNAPSHOTS,
  SNAPSHOT_INDEX,
  SNAPSHOT_PREFIX,
  type Snapshot,
  type SnapshotStorage,
  saveSnapshot,
} from './snapshot.ts'

/** localStorage with a quota in characters, as browsers count it (keys and values). */
class FakeStorage implements SnapshotStorage {
  readonly items = new Map<string, string>()
  constructor(private readonly quota = Number.POSITIVE_INFINITY) {}
  getItem(key: string): string | null {
    return this.items.get(key) ?? null
  }
  setItem(key: string, value: string): void {
    let used = key.length + value.length
    for (const [k, v] of this.items) if (k !== key) used += k.length + v.length
    if (used > this.quota) throw new DOMException('full', 'QuotaExceededError')
    this.items.set(key, value)
  }
  removeItem(key: string): void {
    this.items.delete(key)
  }
  paths(): string[] {
    return [...this.items.keys()]
      .filter((k) => k.startsWith(SNAPSHOT_PREFIX))
      .map((k) => k.slice(SNAPSHOT_PREFIX.length))
      .sort()
  }
  index(): unknown {
    return JSON.parse(this.items.get(SNAPSHOT_INDEX) ?? 'null')
  }
}

function shot(html = '<main>Topics</main>'): Snapshot {
  return { v: 1, user: 'u1', width: 1280, css: '/assets/index-a.css', at: 1, title: 'Topics', html }
}

describe('screen snapshots in localStorage', () => {
  it('keeps one per address, the most recent first, and at most MAX_SNAPSHOTS', () => {
    const storage = new FakeStorage()
    const paths = Array.from({ length: MAX_SNAPSHOTS + 2 }, (_, i) => `/topics/${i}`)
    for (const path of paths) expect(saveSnapshot(storage, path, shot(path))).toBe(true)
    const kept = paths.slice(2).reverse()
    expect(storage.index()).toEqual(kept)
    expect(storage.paths()).toEqual([...kept].sort())
    // Taken again, an address moves to the front and is replaced, not repeated.
    saveSnapshot(storage, '/topics/3', shot('<main>new</main>'))
    expect(storage.index()).toEqual(['/topics/3', ...kept.filter((p) => p !== '/topics/3')])
    expect(JSON.parse(storage.getItem(`${SNAPSHOT_PREFIX}/topics/3`) ?? '{}').html).toBe(
      '<main>new</main>',
    )
  })

  it('makes room by dropping the others when storage is full, and keeps nothing that cannot fit', () => {
    const big = 'x'.repeat(3_000)
    const storage = new FakeStorage(8_000)
    storage.setItem('pairwise.user', '{"id":"u1"}')
    expect(saveSnapshot(storage, '/', shot(big))).toBe(true)
    expect(saveSnapshot(storage, '/topics', shot(big))).toBe(true)
    // A third does not fit beside two: the older ones go, this one stays.
    expect(saveSnapshot(storage, '/dashboard', shot(big))).toBe(true)
    expect(storage.paths()).toEqual(['/dashboard'])
    expect(storage.index()).toEqual(['/dashboard'])
    // Bigger than the whole quota: nothing of it is kept, and nothing stale is left.
    expect(saveSnapshot(storage, '/topics', shot('y'.repeat(9_000)))).toBe(false)
    expect(storage.paths()).toEqual([])
    expect(storage.index()).toEqual([])
    expect(storage.getItem('pairwise.user')).toBe('{"id":"u1"}')
  })

  it('keeps no screen bigger than MAX_SNAPSHOT_CHARS', () => {
    const storage = new FakeStorage()
    expect(saveSnapshot(storage, '/topics', shot('z'.repeat(MAX_SNAPSHOT_CHARS + 1)))).toBe(false)
    expect(storage.paths()).toEqual([])
  })

  it('forgets every copy and its index, and nothing else', () => {
    const storage = new FakeStorage()
    storage.setItem('pairwise.user', '{"id":"u1"}')
    saveSnapshot(storage, '/', shot())
    saveSnapshot(storage, '/topics?q=rust', shot())
    forgetSnapshots(storage)
    expect(storage.paths()).toEqual([])
    expect(storage.getItem(SNAPSHOT_INDEX)).toBeNull()
    expect([...storage.items.keys()]).toEqual(['pairwise.user'])
  })

  it('reads a damaged index as empty', () => {
    const storage = new FakeStorage()
    storage.setItem(SNAPSHOT_INDEX, '{not json')
    expect(saveSnapshot(storage, '/', shot())).toBe(true)
    expect(storage.index()).toEqual(['/'])
  })
})
