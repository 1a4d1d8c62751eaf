import { type Answer, detailOf, NoAnswer } from '../../lib/http.ts'
import { dropCaughtUp } from './catch-up.ts'
import { getMeta, META } from './db.ts'
import { call, checkIdentity, type FlushContext, shrink } from './flush-context.ts'
import { askFlushStart, startsAsPlanned } from './flush-start.ts'
import { applyPage, parsePage, pullPath, READ_AHEAD, readAhead } from './page.ts'
import type { PageWriter, PageWriterFactory } from './page-writer.ts'
import { NeedsSignIn, RetryLater } from './run.ts'

/** The smallest page asked for after timeouts. */
const PULL_LIMIT_MIN = 25

export type PullStats = {
  pages: number
  /** Rows written (changes kept) and removed over every table. */
  changed: number
  removed: number
  /** Applied mutations whose effect the synced rows do not show yet. */
  waiting: number
  /** Where the pull ended: the stored cursor. */
  cursor: string | undefined
  /** Of `pages`, those the page writer wrote (a first sync's, page-writer.ts). */
  byWriter: number
}

/**
 * A planned pull (see `pullToEnd`'s `planned`) found the device elsewhere than
 * planned, or its first answer was not a page: nothing was written, and the
 * flush starts again the usual way.
 */
export class NotAsPlanned extends Error {
  override readonly name = 'NotAsPlanned'
}

/**
 * One turn of the event loop: the reads a commit set off as timers (the
 * screens' coalesced reads, useSyncedCoalesced) ask IndexedDB before the next
 * write transaction does, so they are not queued behind it.
 */
function screensFirst(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}

/** A page writer given the pages after a first page (page-writer.ts), as the pull drives it. */
type Handed = {
  /** The first page is written: the writer may write its own. */
  go(): void
  stop(): void
  /** Its last page written, or where it stopped (its earlier pages stay written). */
  ended: Promise<{ last: true; cursor: string } | { last: false; reason: string }>
}

/**
 * Starts a page writer on the pages from `cursor` (it asks for them at once,
 * and writes once told `go`), counting what it writes into `stats`. Undefined
 * when none starts.
 */
function handOff(
  ctx: FlushContext,
  factory: PageWriterFactory,
  cursor: string,
  stats: PullStats,
): Handed | undefined {
  let settle: (end: Awaited<Handed['ended']>) => void = () => {}
  const ended = new Promise<Awaited<Handed['ended']>>((resolve) => {
    settle = resolve
  })
  let writer: PageWriter | null
  try {
    writer = factory((message) => {
      if (message.type === 'answered') return ctx.run.progress()
      if (message.type === 'stopped') return settle({ last: false, reason: message.reason })
      stats.pages += 1
      stats.byWriter += 1
      stats.changed += message.changed
      stats.removed += message.removed
      ctx.run.progress()
      if (message.last) settle({ last: true, cursor: message.cursor })
    })
  } catch {
    // No worker here (a browser that refuses it): the pull writes every page itself.
    return undefined
  }
  if (!writer) return undefined
  const { baseUrl, timeoutMs } = ctx.http
  const job = { dbName: ctx.db.name, cursor, limit: ctx.sizes.pull, baseUrl, timeoutMs }
  writer.post({ type: 'start', job })
  const running = writer
  return { go: () => running.post({ type: 'go' }), stop: () => running.stop(), ended }
}

/**
 * What the last page's transaction adds: the sync time, and the applied
 * mutations whose effect has arrived dropped. Answers how many still wait.
 */
async function finish(ctx: FlushContext, applied: number[]): Promise<number> {
  const [, waiting] = await Promise.all([
    ctx.db.meta.put({ key: META.lastSyncedAt, value: ctx.now() }),
    dropCaughtUp(ctx.db, applied, ctx.now()),
  ])
  return waiting
}

/**
 * Pulls to the end. Without a cursor (a first sync, or a cursor the server
 * no longer accepts) it starts from nothing, after making sure the session is
 * this user's. The last page's transaction also records the sync time and
 * drops the applied mutations (`appliedSeqs`, known before the pull began)
 * whose effect has arrived.
 */
export async function pullToEnd(
  ctx: FlushContext,
  appliedSeqs: number[],
  /**
   * The stored cursor, when the caller has just read it (flush-start.ts), and
   * the answer to a pull from it already asked for (a poke's, or a new
   * database's first page: see flusher.ts).
   */
  known?: {
    cursor: string | undefined
    first?: { cursor: string | undefined; answer: Promise<Answer> }
    /**
     * Nothing was read before this pull (a poke's, issue 20): `cursor` is
     * where the flush believes the device stands, `first` asked from it. The
     * first page's write transaction reads where the device stands before its
     * writes (flush-start.ts) and writes only if it is as planned, with the
     * applied mutations read there in place of `appliedSeqs`; else, or when
     * the first answer is not a page, it throws NotAsPlanned having written
     * nothing.
     */
    planned?: { clientId: string }
  },
): Promise<PullStats> {
  const stats: PullStats = {
    pages: 0,
    changed: 0,
    removed: 0,
    waiting: 0,
    cursor: undefined,
    byWriter: 0,
  }
  let cursor = known ? known.cursor : await getMeta<string>(ctx.db, META.cursor)
  let planned =
    known?.planned && cursor !== undefined
      ? { cursor, clientId: known.planned.clientId }
      : undefined
  let applied = appliedSeqs
  let restarted = false
  // A pull from nothing is one pass, which sends each row once (sync-server/sync/pull.ts): once
  // its first page has cleared the tables, no later page's row can be held, and reading the
  // held versions of a first sync's 500-row pages took half of each page's transaction.
  let fromNothing = false
  if (cursor === undefined) await checkIdentity(ctx)
  const ask = (from: string | undefined) => call(ctx, 'GET', pullPath(from, ctx.sizes.pull))
  // A pull from nothing hands the pages after its first to a page writer (page-writer.ts),
  // which asks for them itself: until it is known whether one starts, none is asked ahead here.
  let writerFactory = cursor === undefined ? ctx.pageWriter : null
  let ahead = readAhead(ask, writerFactory ? 0 : READ_AHEAD)
  if (known?.first) ahead.seed(known.first.cursor, known.first.answer)
  let handed: Handed | undefined
  try {
    for (;;) {
      let answer: Answer
      try {
        answer = await ahead.take(cursor)
      } catch (error) {
        ahead.drop()
        // Too slow for this connection: smaller pages, so each one gets through.
        if (error instanceof NoAnswer && error.reason === 'timeout') {
          if (shrink(ctx.sizes, 'pull', ctx.sizes.pull, PULL_LIMIT_MIN)) continue
        }
        throw error
      }
      if (planned && answer.status !== 200) throw new NotAsPlanned('The early pull was no page.')
      if (answer.status === 401) throw new NeedsSignIn(detailOf(answer))
      if (answer.status === 400 && cursor !== undefined && !restarted) {
        // Not valid here (another user's, or another database's): start again, if we are still us.
        ahead.drop()
        await checkIdentity(ctx)
        cursor = undefined
        restarted = true
        continue
      }
      if (answer.status !== 200) throw new RetryLater(`The pull answered ${answer.status}.`)
      const page = parsePage(answer.body)
      if (!page) throw new RetryLater('The pull answer was not understood.')
      const last = !page.hasMore
      const clear = page.reset || cursor === undefined
      if (writerFactory) {
        // The writer starts asking for the next pages now, while this one is written.
        if (clear && !last) handed = handOff(ctx, writerFactory, page.cursor, stats)
        writerFactory = null
        if (!handed) {
          ahead.close()
          ahead = readAhead(ask)
        }
      }
      ctx.run.check()
      const plan = planned
      planned = undefined
      await ctx.db.transaction('rw', ctx.db.tables, async () => {
        ctx.run.check()
        // Asked for before the page's writes (IndexedDB runs a transaction's requests in order).
        const start = plan ? askFlushStart(ctx.db) : undefined
        const [moved, stood] = await Promise.all([
          applyPage(ctx.db, page, clear, fromNothing),
          start,
        ])
        if (plan && stood) {
          // Throwing aborts the transaction: the page's writes are undone.
          if (!startsAsPlanned(stood, plan)) throw new NotAsPlanned('The device stood elsewhere.')
          applied = stood.applied
        }
        stats.changed += moved.changed
        stats.removed += moved.removed
        if (last) stats.waiting = await finish(ctx, applied)
      })
      ctx.onPageWritten?.()
      if (clear) fromNothing = true
      ctx.run.progress()
      stats.pages += 1
      if (last) return { ...stats, cursor: page.cursor }
      cursor = page.cursor
      // The first page of a sync from nothing is what a new device's screens are waiting for:
      // they read it before the next page's transaction, which IndexedDB would run first.
      if (clear) await screensFirst()
      if (!handed) continue
      // The writer writes the rest (the screens' reads above asked first: they go first).
      const writer = handed
      writer.go()
      const ended = await ctx.run.guard(writer.ended)
      writer.stop()
      handed = undefined
      ctx.run.check()
      if (ended.last) {
        await ctx.db.transaction('rw', ctx.db.tables, async () => {
          ctx.run.check()
          stats.waiting = await finish(ctx, applied)
        })
        return { ...stats, cursor: ended.cursor }
      }
      // It stopped: on from the cursor of the last page it wrote, the usual way, which meets
      // whatever stopped it (an error answer, no answer) as any pull does. Said in the console
      // for whoever looks into a slow first sync: nothing is lost, nothing for the person to do.
      console.info(`The page writer stopped (${ended.reason}); the pull goes on in the page.`)
      cursor = await getMeta<string>(ctx.db, META.cursor)
      ahead.close()
      ahead = readAhead(ask)
    }
  } finally {
    ahead.close()
    handed?.stop()
  }
}
