import type { ObservabilitySet } from 'dexie'
import { isPacked } from './packs.ts'

/**
 * Whether a commit (Dexie's `storagemutated` parts, from this tab or another
 * context) may have changed what a read of `tables` answers. A table's own
 * parts count as they come. The overlay is shared by every table's pending
 * changes, so its parts count only when a changed overlay row is one of
 * `tables`' rows: the overlay's key is `[mutationId, table, rowId]`, and the
 * keys a commit wrote or deleted say which tables they belong to. A range
 * of keys (a cleared table, a database reopened) says nothing of the sort,
 * and counts. Without this, changing one's notification preferences read and
 * weighed every topic and person again for the recommendations (100–170 ms
 * of main thread on a phone at company scale).
 */
export function touchesRead(
  parts: ObservabilitySet,
  dbName: string,
  tables: readonly string[],
): boolean {
  const prefix = `idb://${dbName}/`
  const overlay = `${prefix}overlay/`
  const followsOverlay = tables.includes('overlay')
  // A packed table's rows are also in the packs and hidden by removals (packs.ts).
  const followsPacks = tables.some(isPacked)
  let overlayChanged = false
  for (const part of Object.keys(parts)) {
    if (!part.startsWith(prefix)) continue
    if (part.startsWith(overlay)) {
      overlayChanged = followsOverlay
      continue
    }
    if (followsPacks && (part.startsWith(`${prefix}packs/`) || part.startsWith(`${prefix}gone/`))) {
      return true
    }
    if (tables.some((table) => part.startsWith(`${prefix}${table}/`))) return true
  }
  if (!overlayChanged) return false
  // The primary keys' part: every overlay write names its keys there (a range when it cannot).
  const named = tablesOfKeys(parts[overlay])
  return named === null || [...named].some((table) => tables.includes(table))
}

type RangeNode = { from?: unknown; to?: unknown; l?: RangeNode | null; r?: RangeNode | null }

/** The tables (the second part of each overlay key) a range set holds; null if it holds a range. */
function tablesOfKeys(set: unknown): Set<string> | null {
  if (set === undefined) return null
  const tables = new Set<string>()
  const stack: RangeNode[] = [set as RangeNode]
  while (stack.length > 0) {
    const node = stack.pop() as RangeNode
    if ('from' in node) {
      const { from, to } = node
      if (!Array.isArray(from) || !Array.isArray(to) || !sameKey(from, to)) return null
      const table = from[1]
      if (typeof table !== 'string') return null
      tables.add(table)
    }
    if (node.l) stack.push(node.l)
    if (node.r) stack.push(node.r)
  }
  return tables
}

/** Two overlay keys (arrays of strings) alike. */
function sameKey(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((part, i) => part === b[i])
}
