import type { Problem } from '../../../../shared/problem.ts'
import {
  IDEMPOTENCY_KEY_RETENTION_DAYS,
  PUSH_BODY_LIMIT_BYTES,
  PUSH_OTHER_USER_PROBLEM,
  type PushMutation,
  type PushResult,
  pushOutcome,
  pushResponseSchema,
} from '../../../../shared/sync.ts'
import { type Answer, detailOf, NoAnswer } from '../../lib/http.ts'
import type { OutboxRow, RejectedRow } from './db.ts'
import { call, type FlushContext, OTHER_USER_DETAIL, shrink } from './flush-context.ts'
import { NeedsSignIn, RetryLater } from './run.ts'

const DAY_MS = 24 * 60 * 60 * 1000
/** A day less than the server keeps answers: a push now is surely still answered from memory. */
export const STALE_AFTER_MS = (IDEMPOTENCY_KEY_RETENTION_DAYS - 1) * DAY_MS

export const STALE_DETAIL =
  'This change was sent long ago and its answer never arrived. It was not sent again, because it might then be applied twice: check whether it took effect, and make it again if not.'

export type PushStats = { pushed: number; applied: number; rejected: RejectedRow[] }

function toMutation(row: OutboxRow): PushMutation {
  return {
    id: row.id,
    method: row.method,
    path: row.path,
    ...(row.body === undefined ? {} : { body: row.body }),
  }
}

/** What a push carries besides its mutations. */
type PushEnvelope = { clientId: string; userId: string }

/**
 * A change pushed the moment it was queued, before the flush had the sync
 * lock (issue 20): queueMutation marked it sent in the transaction that
 * queued it, when nothing else was waiting to be sent, so it goes out in
 * order. `row` is the outbox row as it was before it was marked (what a push
 * refused whole puts back); `answer` the push's answer, which the flush
 * records under the lock as the first turn of pushOutbox. Another tab's flush
 * may send it too: the server answers the second from memory (its
 * Idempotency-Key), so it still applies once.
 */
export type EarlyPush = { row: OutboxRow; answer: Promise<Answer> }

/** The body of a push of `rows` (also the early push's: one format). */
export function pushBody(envelope: PushEnvelope, rows: OutboxRow[]) {
  return { ...envelope, mutations: rows.map(toMutation) }
}

const encoder = new TextEncoder()
const jsonBytes = (value: unknown) => encoder.encode(JSON.stringify(value)).length

/** Bytes of one mutation inside a push body, as JSON.stringify writes it. */
function mutationBytes(row: OutboxRow): number {
  return jsonBytes(toMutation(row))
}

/** Bytes of a push body carrying no mutation: `{"clientId":…,"userId":…,"mutations":[]}`. */
function envelopeBytes(envelope: PushEnvelope): number {
  return jsonBytes({ ...envelope, mutations: [] })
}

/** Whether `row` could be pushed at all: alone in a push, under the server's body limit. */
function fitsAlone(row: OutboxRow, envelope: PushEnvelope): boolean {
  return envelopeBytes(envelope) + mutationBytes(row) <= PUSH_BODY_LIMIT_BYTES
}

/**
 * The longest head of `rows` whose push body stays within the server's
 * limit (100 topic creations with the longest descriptions would not: see
 * PUSH_BODY_LIMIT_BYTES); counted exactly as the body is written. At least
 * one row: a row too large alone is refused before it gets here.
 */
function fitBody(rows: OutboxRow[], envelope: PushEnvelope): OutboxRow[] {
  let bytes = envelopeBytes(envelope)
  for (const [i, row] of rows.entries()) {
    bytes += mutationBytes(row) + (i > 0 ? 1 : 0)
    if (bytes > PUSH_BODY_LIMIT_BYTES && i > 0) return rows.slice(0, i)
  }
  return rows
}

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`

/**
 * Why a change too large to send was dropped, in words for the "could not be
 * saved" list: `bytes` its size, `limit` the most a push may carry when the
 * client knows it (the server, or a proxy before it, may take less).
 */
function tooLargeDetail(bytes: number, limit?: number): string {
  const most = limit === undefined ? '' : `, and at most ${megabytes(limit)} can be sent at once`
  return `This change is too large to send (${megabytes(bytes)}${most}). It was not saved: make it again with less text.`
}

/** Drops a mutation and its optimistic change, keeping why: what the UI lists and toasts. */
async function reject(
  ctx: FlushContext,
  row: OutboxRow,
  status: number,
  detail: string,
  errors: Problem['errors'],
): Promise<RejectedRow> {
  const rejected = await dropRefused(ctx, row, status, detail, errors)
  ctx.onRejected(rejected)
  return rejected
}

/** reject() without telling anyone: for a caller inside a larger transaction, who tells after it commits. */
async function dropRefused(
  ctx: FlushContext,
  row: OutboxRow,
  status: number,
  detail: string,
  errors: Problem['errors'],
): Promise<RejectedRow> {
  const { db } = ctx
  const rejected: RejectedRow = {
    id: row.id,
    kind: row.kind,
    label: row.label,
    method: row.method,
    path: row.path,
    ...(row.body === undefined ? {} : { body: row.body }),
    targets: row.targets,
    status,
    detail,
    ...(errors ? { errors } : {}),
    createdAt: row.createdAt,
    rejectedAt: ctx.now(),
  }
  await db.transaction('rw', [db.outbox, db.overlay, db.rejected], async () => {
    await db.outbox.delete(row.seq as number)
    await db.overlay.where('mutationId').equals(row.id).delete()
    await db.rejected.put(rejected)
  })
  return rejected
}

/** Sent long ago and never answered: its key may be forgotten, so it is not pushed blindly. */
async function expireStale(ctx: FlushContext): Promise<RejectedRow[]> {
  const limit = ctx.now() - STALE_AFTER_MS
  const stale = await ctx.db.outbox
    .where('status')
    .equals('sent')
    .filter((r) => (r.firstSentAt ?? ctx.now()) < limit)
    .toArray()
  const out: RejectedRow[] = []
  for (const row of stale) {
    ctx.run.check()
    out.push(await dropRefused(ctx, row, 0, STALE_DETAIL, undefined))
  }
  return out
}

/** What one turn of pushOutbox takes from the outbox: a batch marked sent, or nothing left. */
type Taken = { batch: OutboxRow[]; first: OutboxRow | undefined; dropped: RejectedRow[] }

/**
 * One read-write transaction before each push: the stale rows dropped (on
 * the first turn), the outbox's head read, a head too large for any push
 * refused, and the batch marked sent with its attempt counted. One
 * transaction, not four: each costs a few milliseconds more while the
 * screens re-read after the write that queued the change, and the push
 * waits for all of them (issue 20).
 */
function takeBatch(ctx: FlushContext, envelope: PushEnvelope, firstTurn: boolean): Promise<Taken> {
  const { db } = ctx
  return db.transaction('rw', [db.outbox, db.overlay, db.rejected], async () => {
    const dropped = firstTurn ? await expireStale(ctx) : []
    for (;;) {
      ctx.run.check()
      const head = await db.outbox
        .orderBy('seq')
        .filter((r) => r.status !== 'applied')
        .limit(ctx.sizes.push)
        .toArray()
      const [first] = head
      if (!first) return { batch: [], first, dropped }
      if (!fitsAlone(first, envelope)) {
        // No push could carry it: refused here, never sent, so it cannot hold up the rest.
        const bytes = envelopeBytes(envelope) + mutationBytes(first)
        const detail = tooLargeDetail(bytes, PUSH_BODY_LIMIT_BYTES)
        dropped.push(await dropRefused(ctx, first, 413, detail, undefined))
        continue
      }
      const batch = fitBody(head, envelope)
      const sentAt = ctx.now()
      for (const row of batch) {
        await db.outbox.update(row.seq as number, {
          status: 'sent',
          attempts: row.attempts + 1,
          firstSentAt: row.firstSentAt ?? sentAt,
        })
      }
      return { batch, first, dropped }
    }
  })
}

/** A push refused because the session is another user's: nothing of it ran. */
function isOtherUser(answer: Answer): boolean {
  return (answer.body as { type?: unknown } | null)?.type === PUSH_OTHER_USER_PROBLEM
}

function errorsOf(body: unknown): Problem['errors'] {
  const errors = (body as { errors?: unknown } | null)?.errors
  return Array.isArray(errors) ? (errors as Problem['errors']) : undefined
}

/** Records the answers of one batch, in order; answers why to stop, if it must. */
async function recordResults(
  ctx: FlushContext,
  batch: OutboxRow[],
  results: PushResult[],
  stats: PushStats,
): Promise<string | undefined> {
  for (const [i, row] of batch.entries()) {
    const result = results[i]
    if (!result) return 'The server answered part of the batch.'
    if (result.id !== '' && result.id !== row.id) return 'The push results are out of order.'
    ctx.run.check()
    // The session ended mid-batch: keep this and the rest for after sign-in.
    if (result.status === 401) throw new NeedsSignIn(detailOf(result))
    const outcome = pushOutcome(result.status)
    if (outcome === 'retry') {
      await ctx.db.outbox.update(row.seq as number, { lastError: detailOf(result) })
      return `A change answered ${result.status}: ${detailOf(result)}`
    }
    if (outcome === 'refused') {
      const answer = { status: result.status, body: result.body }
      // 413: larger than the server takes for one request (its BODY_LIMIT_BYTES).
      const detail = result.status === 413 ? tooLargeDetail(mutationBytes(row)) : detailOf(answer)
      stats.rejected.push(await reject(ctx, row, result.status, detail, errorsOf(result.body)))
      continue
    }
    await ctx.db.outbox.update(row.seq as number, {
      status: 'applied',
      appliedAt: ctx.now(),
      answer: result.body,
      pullsSinceApplied: 0,
      lastError: undefined,
    })
    stats.applied += 1
  }
  return undefined
}

/**
 * Pushes the outbox in order, in batches of up to PUSH_MAX_MUTATIONS cut to
 * the push body limit. Each push names this database's user: the server
 * refuses another user's session as it refuses none (401). A 4xx
 * answer to a mutation is final (dropped with the server's detail); a 5xx,
 * 429 or no answer stops the flush (retried later, the same ids, which the
 * server answers from memory); 401 keeps everything for after sign-in. A
 * mutation too large for any push is refused without being sent. A
 * batch refused whole as too large or malformed is halved down to the one
 * mutation that causes it, which is then refused alone, so nothing wedges.
 */
export async function pushOutbox(ctx: FlushContext, early?: EarlyPush): Promise<PushStats> {
  const stats: PushStats = { pushed: 0, applied: 0, rejected: [] }
  let sent = early
  let staleChecked = false
  for (;;) {
    ctx.run.check()
    const envelope: PushEnvelope = { clientId: ctx.clientId, userId: ctx.userId }
    // The early push's change is the outbox's head (nothing was waiting when it was queued).
    const taken: Taken = sent
      ? { batch: [sent.row], first: sent.row, dropped: [] }
      : await takeBatch(ctx, envelope, !staleChecked)
    if (!sent) staleChecked = true
    const { batch, first, dropped } = taken
    for (const row of dropped) ctx.onRejected(row)
    stats.rejected.push(...dropped)
    if (!first) return stats
    ctx.run.check()
    let answer: Awaited<ReturnType<typeof call>>
    try {
      // The server refuses the whole push (401) if the session is not `userId`'s.
      answer = sent
        ? await sent.answer
        : await call(ctx, 'POST', '/api/sync/push', pushBody(envelope, batch))
    } catch (error) {
      // Too slow for this connection: smaller batches (the same ids answer from memory).
      if (error instanceof NoAnswer && error.reason === 'timeout') {
        if (shrink(ctx.sizes, 'push', batch.length, 1)) continue
      }
      throw error
    } finally {
      sent = undefined
    }
    stats.pushed += batch.length
    if (answer.status === 401) {
      if (isOtherUser(answer)) {
        // Refused before anything ran: the batch stays as it was, never sent as far as keys go.
        await ctx.db.transaction('rw', ctx.db.outbox, async () => {
          for (const row of batch) {
            await ctx.db.outbox.update(row.seq as number, {
              status: row.status,
              attempts: row.attempts,
              firstSentAt: row.firstSentAt,
            })
          }
        })
        throw new NeedsSignIn(OTHER_USER_DETAIL)
      }
      throw new NeedsSignIn(detailOf(answer))
    }
    if (answer.status === 400 || answer.status === 413) {
      // Refused whole: halve down to the one mutation at fault, refused alone.
      if (shrink(ctx.sizes, 'push', batch.length, 1)) continue
      ctx.run.check()
      const detail =
        answer.status === 413
          ? tooLargeDetail(envelopeBytes(envelope) + mutationBytes(first))
          : detailOf(answer)
      stats.rejected.push(await reject(ctx, first, answer.status, detail, errorsOf(answer.body)))
      continue
    }
    if (answer.status !== 200) {
      throw new RetryLater(`The push answered ${answer.status}: ${detailOf(answer)}`)
    }
    const parsed = pushResponseSchema.safeParse(answer.body)
    if (!parsed.success) throw new RetryLater('The push answer was not understood.')
    const stop = await recordResults(ctx, batch, parsed.data.results, stats)
    if (stop) throw new RetryLater(stop)
  }
}
