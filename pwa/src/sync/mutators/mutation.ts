import Dexie from 'dexie'
import type { z } from 'zod'
import type { Actor, Decision } from '../../../../shared/decision.ts'
import { type FieldError, invalidInput } from '../../../../shared/problem.ts'
import {
  META,
  type MutationKind,
  type OutboxRow,
  type OverlayOp,
  type OverlayRow,
  type RowRef,
  type RowTable,
  type SyncDb,
} from '../engine/db.ts'
import { readRow } from '../engine/view.ts'

/**
 * Queueing one write: the outbox row and its optimistic overlay in one Dexie
 * transaction, after the same validation and permission checks the server
 * runs, so a write the server would certainly refuse is refused at once, in
 * the server's words, and never queued.
 */

/** A write refused before it was queued: `detail` is the sentence to show. */
export class MutationRefused extends Error {
  override readonly name = 'MutationRefused'
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors?: FieldError[],
  ) {
    super(detail)
  }
}

/** Who is writing, and what a queued write sets off. */
export type MutationContext = {
  db: SyncDb
  /** The signed-in user; isAdmin is read from the synced user row when there is one. */
  me: { id: string; username: string; isAdmin: boolean }
  now: () => number
  newId: () => string
  /**
   * Called once the write is committed (the engine flushes). `sending`: the
   * outbox row as it was queued, when it was marked sent to go out at once
   * (see `sendsAtOnce`); `row` is then as stored, marked.
   */
  onQueued: (row: OutboxRow, sending?: OutboxRow) => void
  /**
   * Whether a change queued now may be sent at once, before the flush takes
   * the sync lock (the engine is idle, online and knows its client id). It is
   * then marked sent in the transaction that queues it, if nothing else waits
   * to be sent and sync is not waiting for a sign-in (issue 20).
   */
  sendsAtOnce?: () => boolean
  /**
   * Resolves once the rows on screen are stored: a new device may draw its
   * first page before it is written (early-page.ts), and a change made from
   * it is checked against the stored rows.
   */
  settled?: () => Promise<void>
}

/** One optimistic change a write makes. */
export type Effect = RowRef & { op: OverlayOp }

export type Plan = {
  kind: MutationKind
  method: 'POST' | 'PATCH'
  path: string
  body?: unknown
  label: string
  effects: Effect[]
  /** Rows a refusal is shown on besides those `effects` change. */
  alsoTargets?: RowRef[]
  /** The table of the row the 2xx answer is: its pulled copy shows the write arrived. */
  confirmIn: RowTable | null
  awaitingConfirmation?: boolean
}

export type Queued = { mutationId: string }

/**
 * Parses input with a shared schema; refuses with the server's 400 sentence
 * (the first field error, naming its field) and every field error.
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input)
  if (parsed.success) return parsed.data
  const { detail, errors } = invalidInput(parsed.error)
  throw new MutationRefused(400, detail, errors)
}

/** Refuses when a shared permission check does. */
export function enforce(decision: Decision): void {
  if (!decision.ok) throw new MutationRefused(decision.status, decision.reason)
}

/** The row, or a 404 refusal with the server's words. */
export function found<T>(row: T | undefined, detail: string): T {
  if (row === undefined) throw new MutationRefused(404, detail)
  return row
}

/** The actor for permission checks: admin status as last synced (or as signed in). */
export async function actorOf(ctx: MutationContext): Promise<Actor> {
  return actorFrom(ctx, await readRow(ctx.db, 'users', ctx.me.id))
}

/** actorOf, from the user's row when the caller has read it already. */
export function actorFrom(ctx: MutationContext, me: { isAdmin: boolean } | undefined): Actor {
  return { id: ctx.me.id, isAdmin: me?.isAdmin ?? ctx.me.isAdmin }
}

export function isoNow(ctx: MutationContext): string {
  return new Date(ctx.now()).toISOString()
}

/**
 * Plans and queues one write in a single read-write transaction over every
 * table, so the checks read the same state the overlay is written against
 * (two tabs cannot both take the last place on a topic locally).
 */
export async function queueMutation(
  ctx: MutationContext,
  plan: () => Promise<Plan>,
): Promise<Queued> {
  const { db } = ctx
  await ctx.settled?.()
  // IndexedDB closed under the app (Dexie reopens on its own unless closed on purpose): once more.
  const queued = await inTransaction(db, async () => {
    // With the checks' reads: one round trip to the browser's database for all of them.
    const [p, nothingElse] = await Promise.all([plan(), nothingElseToSend(db)])
    // The reads ran in this transaction (view.ts runs them in the one they are called from):
    // what follows must be written in it too, never in a transaction of its own.
    if (Dexie.currentTransaction === null)
      throw new Error('A change was planned outside its transaction')
    const entry: OutboxRow = {
      id: ctx.newId(),
      kind: p.kind,
      method: p.method,
      path: p.path,
      ...(p.body === undefined ? {} : { body: p.body }),
      label: p.label,
      targets: dedupeRefs([...p.effects, ...(p.alsoTargets ?? [])]),
      confirmIn: p.confirmIn,
      awaitingConfirmation: p.awaitingConfirmation ?? false,
      createdAt: ctx.now(),
      status: 'queued',
      attempts: 0,
    }
    const sending = nothingElse && ctx.sendsAtOnce?.() ? entry : undefined
    const stored: OutboxRow = sending
      ? { ...entry, status: 'sent', attempts: 1, firstSentAt: entry.createdAt }
      : entry
    const seq = await db.outbox.add(stored)
    const overlays: OverlayRow[] = combineEffects(p.effects).map((e) => ({
      mutationId: entry.id,
      seq,
      table: e.table,
      rowId: e.rowId,
      op: e.op,
      awaitingConfirmation: entry.awaitingConfirmation,
    }))
    await db.overlay.bulkAdd(overlays)
    return { row: { ...stored, seq }, sending: sending && { ...sending, seq } }
  })
  ctx.onQueued(queued.row, queued.sending)
  return { mutationId: queued.row.id }
}

/** No other change waits to be sent (or is sent, unanswered) and sync waits for no sign-in. */
async function nothingElseToSend(db: SyncDb): Promise<boolean> {
  const [unsent, needsSignIn] = await Promise.all([
    db.outbox.where('status').anyOf('queued', 'sent').count(),
    db.meta.get(META.needsSignIn),
  ])
  return unsent === 0 && needsSignIn?.value !== true
}

async function inTransaction<T>(db: SyncDb, scope: () => Promise<T>): Promise<T> {
  try {
    return await db.transaction('rw', db.tables, scope)
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'DatabaseClosedError') throw error
    if (!db.isOpen()) await db.open()
    return db.transaction('rw', db.tables, scope)
  }
}

function sameRef(a: RowRef, b: RowRef): boolean {
  return a.table === b.table && a.rowId === b.rowId
}

function dedupeRefs(refs: readonly RowRef[]): RowRef[] {
  const out: RowRef[] = []
  for (const r of refs) {
    if (!out.some((o) => sameRef(o, r))) out.push({ table: r.table, rowId: r.rowId })
  }
  return out
}

/** One overlay row per (mutation, row): two changes of one write to one row are combined. */
function combineEffects(effects: readonly Effect[]): Effect[] {
  const out: Effect[] = []
  for (const e of effects) {
    const held = out.find((o) => sameRef(o, e))
    if (!held) {
      out.push({ table: e.table, rowId: e.rowId, op: { ...e.op } })
      continue
    }
    const create = held.op.create ?? e.op.create
    held.op = {
      ...(create ? { create } : {}),
      set: { ...held.op.set, ...e.op.set },
      inc: { ...held.op.inc, ...e.op.inc },
      flip: [...(held.op.flip ?? []), ...(e.op.flip ?? [])],
    }
  }
  return out
}
