import type { Problem } from '../../../shared/problem.ts'
import {
  IDEMPOTENCY_KEY_RETENTION_DAYS,
  PUSH_BODY_LIMIT_BYTES,
  type PushMutation,
  type PushResult,
  pushOutcome,
  pushResponseSchema,
} from '../../../shared/sync.ts'
import type { OutboxRow, RejectedRow } from './db.ts'
import { call, checkIdentity, type FlushContext, shrink } from './flush-context.ts'
import { detailOf, NoAnswer } from './http.ts'
import { NeedsSignIn, RetryLater } from './run.ts'

const DAY_MS = 24 * 60 * 60 * 1000
/** A day less than the server keeps answers: a push now is surely still answered from memory. */
export const STALE_AFTER_MS = (IDEMPOTENCY_KEY_RETENTION_DAYS - 1) * DAY_MS

export const STALE_DETAIL =
  'This change was sent long ago and its answer never arrived. It was not sent again, because it might then be applied twice: check whether it took effect, and make it again if not.'

export type PushStats = { pushed: number; applied: number; rejected: RejectedRow[] }

/** Room for the envelope around the mutations. */
const ENVELOPE_BYTES = 1024

function toMutation(row: OutboxRow): PushMutation {
  return {
    id: row.id,
    method: row.method,
    path: row.path,
    ...(row.body === undefined ? {} : { body: row.body }),
  }
}

/**
 * The longest head of `rows` whose push body stays under the server's limit
 * (a full batch of long topic descriptions would not); at least one row.
 */
export function fitBody(rows: OutboxRow[]): OutboxRow[] {
  const encoder = new TextEncoder()
  let bytes = ENVELOPE_BYTES
  for (const [i, row] of rows.entries()) {
    bytes += encoder.encode(JSON.stringify(toMutation(row))).length + 1
    if (bytes > PUSH_BODY_LIMIT_BYTES && i > 0) return rows.slice(0, i)
  }
  return rows
}

/** Drops a mutation and its optimistic change, keeping why: what the UI lists and toasts. */
async function reject(
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
  ctx.onRejected(rejected)
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
    out.push(await reject(ctx, row, 0, STALE_DETAIL, undefined))
  }
  return out
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
      stats.rejected.push(
        await reject(ctx, row, result.status, detailOf(answer), errorsOf(result.body)),
      )
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
 * Pushes the outbox in order, in batches of up to PUSH_MAX_MUTATIONS. A 4xx
 * answer to a mutation is final (dropped with the server's detail); a 5xx,
 * 429 or no answer stops the flush (retried later, the same ids, which the
 * server answers from memory); 401 keeps everything for after sign-in. A
 * batch refused whole as too large or malformed is halved down to the one
 * mutation that causes it, which is then refused alone, so nothing wedges.
 */
export async function pushOutbox(ctx: FlushContext): Promise<PushStats> {
  const stats: PushStats = { pushed: 0, applied: 0, rejected: await expireStale(ctx) }
  for (;;) {
    const size = ctx.sizes.push
    ctx.run.check()
    const batch = fitBody(
      await ctx.db.outbox
        .orderBy('seq')
        .filter((r) => r.status !== 'applied')
        .limit(size)
        .toArray(),
    )
    if (batch.length === 0) return stats
    await checkIdentity(ctx)
    ctx.run.check()
    const sentAt = ctx.now()
    await ctx.db.transaction('rw', ctx.db.outbox, async () => {
      for (const row of batch) {
        await ctx.db.outbox.update(row.seq as number, {
          status: 'sent',
          attempts: row.attempts + 1,
          firstSentAt: row.firstSentAt ?? sentAt,
        })
      }
    })
    let answer: Awaited<ReturnType<typeof call>>
    try {
      answer = await call(ctx, 'POST', '/api/sync/push', {
        clientId: ctx.clientId,
        mutations: batch.map(toMutation),
      })
    } catch (error) {
      // Too slow for this connection: smaller batches (the same ids answer from memory).
      if (error instanceof NoAnswer && error.reason === 'timeout') {
        if (shrink(ctx.sizes, 'push', batch.length, 1)) continue
      }
      throw error
    }
    stats.pushed += batch.length
    if (answer.status === 401) throw new NeedsSignIn(detailOf(answer))
    if (answer.status === 400 || answer.status === 413) {
      const [only] = batch
      if (shrink(ctx.sizes, 'push', batch.length, 1) || !only) continue
      ctx.run.check()
      const errors = errorsOf(answer.body)
      stats.rejected.push(await reject(ctx, only, answer.status, detailOf(answer), errors))
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
