import type { OverlayOp, OverlayRow, RejectedRow } from './db.ts'

/**
 * The merged view: a synced row with the optimistic changes of the mutations
 * not yet confirmed applied on top, in outbox order. Synced rows are never
 * written by a mutation, so dropping a refused change is deleting its overlay
 * rows, and the row is the server's again.
 */

/** What a screen needs to know about a row's unconfirmed and refused changes. */
export type RowSyncState = {
  /** Some change to this row is not confirmed by a pull yet. */
  pending: boolean
  /** A pending change the server may well refuse (apply to a topic that may fill up). */
  awaitingConfirmation: boolean
  /** The row exists only here so far (created offline). */
  created: boolean
  /** Ids of the mutations whose changes are shown. */
  mutations: string[]
  /** Refused changes to this row, not dismissed yet. */
  rejected: { mutationId: string; label: string; status: number; detail: string }[]
}

export type Merged<T> = T & { sync: RowSyncState }

const CLEAN: RowSyncState = Object.freeze({
  pending: false,
  awaitingConfirmation: false,
  created: false,
  mutations: [],
  rejected: [],
}) as RowSyncState

/** Sets a (dotted) path in a copy of `row`. */
function setPath(row: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.')
  let target = row
  for (const key of keys.slice(0, -1)) {
    const next = target[key]
    const copy: Record<string, unknown> =
      next !== null && typeof next === 'object' ? { ...(next as Record<string, unknown>) } : {}
    target[key] = copy
    target = copy
  }
  target[keys.at(-1) as string] = value
}

/** One change on a row (undefined: no row). Never changes its arguments. */
export function applyOp<T extends object>(row: T | undefined, op: OverlayOp): T | undefined {
  let next = row ? ({ ...row } as Record<string, unknown>) : undefined
  if (!next) {
    if (!op.create) return undefined
    next = structuredClone(op.create)
  }
  for (const [path, value] of Object.entries(op.set ?? {})) setPath(next, path, value)
  for (const [field, by] of Object.entries(op.inc ?? {})) {
    const current = next[field]
    next[field] = (typeof current === 'number' ? current : 0) + by
  }
  for (const field of op.flip ?? []) next[field] = !next[field]
  return next as T
}

/** A row with its overlay (any order; applied by seq) and refusals. */
export function mergeRow<T extends object>(
  row: T | undefined,
  overlays: readonly OverlayRow[],
  rejected: readonly RejectedRow[] = [],
): Merged<T> | undefined {
  if (overlays.length === 0 && rejected.length === 0) {
    return row ? { ...row, sync: CLEAN } : undefined
  }
  const ordered = [...overlays].sort((a, b) => a.seq - b.seq)
  let merged = row
  for (const o of ordered) merged = applyOp(merged, o.op)
  if (!merged) return undefined
  return {
    ...merged,
    sync: {
      pending: ordered.length > 0,
      awaitingConfirmation: ordered.some((o) => o.awaitingConfirmation),
      created: row === undefined,
      mutations: [...new Set(ordered.map((o) => o.mutationId))],
      rejected: rejected.map((r) => ({
        mutationId: r.id,
        label: r.label,
        status: r.status,
        detail: r.detail,
      })),
    },
  }
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const key = keyOf(item)
    const group = groups.get(key)
    if (group) group.push(item)
    else groups.set(key, [item])
  }
  return groups
}

/**
 * Every row of a table merged: synced rows in their order, then rows created
 * offline. `overlays` and `rejected` may hold other tables' entries.
 */
export function mergeRows<T extends object>(
  table: string,
  rows: readonly T[],
  keyOf: (row: T) => string,
  overlays: readonly OverlayRow[],
  rejected: readonly RejectedRow[] = [],
): Merged<T>[] {
  const ops = groupBy(
    overlays.filter((o) => o.table === table),
    (o) => o.rowId,
  )
  const refusals = new Map<string, RejectedRow[]>()
  for (const r of rejected) {
    for (const t of r.targets) {
      if (t.table !== table) continue
      const list = refusals.get(t.rowId) ?? []
      list.push(r)
      refusals.set(t.rowId, list)
    }
  }
  const out: Merged<T>[] = []
  const seen = new Set<string>()
  for (const row of rows) {
    const key = keyOf(row)
    seen.add(key)
    const merged = mergeRow(row, ops.get(key) ?? [], refusals.get(key))
    if (merged) out.push(merged)
  }
  for (const [key, list] of ops) {
    if (seen.has(key)) continue
    const merged = mergeRow<T>(undefined, list, refusals.get(key))
    if (merged) out.push(merged)
  }
  return out
}
