import type { Sql } from './connect.ts'

const listeners = new WeakMap<Sql, Set<() => void>>()

/**
 * Says that a transaction on `sql` which may have changed synced rows has
 * committed (http/transaction.ts calls it after each mutating request). The
 * sync hub uses it on the embedded database, whose NOTIFY reaches no other
 * connection: without it, a change would wait for the hub's next poll tick.
 */
export function announceCommit(sql: Sql): void {
  const set = listeners.get(sql)
  if (!set) return
  for (const listener of set) listener()
}

/** Calls `listener` after every commit announced on `sql`; answers the function that stops it. */
export function onCommit(sql: Sql, listener: () => void): () => void {
  let set = listeners.get(sql)
  if (!set) {
    set = new Set()
    listeners.set(sql, set)
  }
  set.add(listener)
  return () => set.delete(listener)
}
