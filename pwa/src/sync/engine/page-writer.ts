import type { Table } from 'dexie'
import { type PullResponse, pullResponseSchema } from '../../../../shared/sync.ts'
import { type Answer, type HttpOptions, request } from '../../lib/http.ts'
import { META, PULLED_STORES, type SyncDb } from './db.ts'
import { applyPage, pullPath, readAhead } from './page.ts'

/**
 * The rest of a first sync, written off the page's main thread (issue 14). A
 * pull from nothing at company scale is some forty pages (10 MB of JSON):
 * parsing, checking and writing them on the main thread took more than a
 * second of it, the screens waited behind that, and each next request waited
 * for the main thread to be free. Once the pull's first page is written (by
 * the pull itself, pull.ts: the screens need it first), the pages after it
 * are fetched, checked and written by a dedicated worker, each in one
 * transaction with its cursor, exactly as the pull writes them. The screens
 * hear of each write as of another tab's (Dexie's storagemutated, sent across
 * contexts on a BroadcastChannel).
 *
 * The worker is an accelerator, never the only way: whatever stops it (an
 * answer that is not a page, no answer, a failed write, no module workers in
 * this browser) it says so and stops, and the pull goes on from the cursor
 * the worker's last page stored, the usual way, which deals with the failure
 * as it always does.
 */

/** What the worker is asked to do: pull `dbName`'s pages from `cursor` to the end. */
export type WriterJob = {
  dbName: string
  cursor: string
  limit: number
  baseUrl: string
  timeoutMs: number
}

/** To the writer: the job (it starts asking for pages), then `go` once the first page is written. */
export type ToWriter = { type: 'start'; job: WriterJob } | { type: 'go' }

/** From the writer, in order. After `stopped`, or a page that is `last`, it says nothing more. */
export type FromWriter =
  /** A page's answer came (progress, for the flush's watchdog). */
  | { type: 'answered' }
  /** A page and its cursor were written in one transaction. */
  | { type: 'page'; changed: number; removed: number; cursor: string; last: boolean }
  /** It stopped having written what its `page` messages said; the pull goes on from there. */
  | { type: 'stopped'; reason: string }

/** A running writer, as the pull sees it: a Worker, or the same work in this thread (tests). */
export type PageWriter = { post(message: ToWriter): void; stop(): void }

/** Starts a writer whose messages go to `listen`; null where there can be none. */
export type PageWriterFactory = (listen: (message: FromWriter) => void) => PageWriter | null

/**
 * Pulls `job`'s pages to the end into `db`: each asked for as soon as the one
 * before it names its cursor (up to READ_AHEAD ahead), checked, and written
 * once `go` has resolved. Never throws: every way it ends is reported.
 */
export async function writePages(
  db: SyncDb,
  http: HttpOptions,
  job: WriterJob,
  go: Promise<void>,
  report: (message: FromWriter) => void,
  signal: AbortSignal,
): Promise<void> {
  const ahead = readAhead((from) =>
    request(http, 'GET', pullPath(from, job.limit), undefined, signal),
  )
  const tables = [...PULLED_STORES.map((t) => db.table(t)), db.meta]
  let cursor = job.cursor
  // The pages' writes reported in order, each as it ends: false once one failed (reported).
  let reported: Promise<boolean> = Promise.resolve(true)
  // Ends the job with `reason`, once what is under way is written and reported.
  const stop = async (reason: string) => {
    if (await reported) report({ type: 'stopped', reason })
  }
  try {
    for (;;) {
      let answer: Answer
      try {
        answer = await ahead.take(cursor)
      } catch (error) {
        return await stop(messageOf(error))
      }
      report({ type: 'answered' })
      if (answer.status !== 200) return await stop(`The pull answered ${answer.status}.`)
      const parsed = pullResponseSchema.safeParse(answer.body)
      if (!parsed.success) return await stop('The pull answer was not understood.')
      const page = parsed.data
      await go
      if (signal.aborted) return await stop('Given up.')
      const write = writeAfter(db, tables, page, cursor)
      const before = reported
      reported = before.then(async (ok) => {
        if (!ok) {
          // Rolled back by its own check: the page before it was not written.
          await write.catch(() => {})
          return false
        }
        try {
          const moved = await write
          report({ type: 'page', ...moved, cursor: page.cursor, last: !page.hasMore })
          return true
        } catch (error) {
          report({ type: 'stopped', reason: messageOf(error) })
          return false
        }
      })
      // One page's write under way while the next is checked and its writes asked for.
      if (!(await before)) return
      if (!page.hasMore) return void (await reported)
      cursor = page.cursor
    }
  } catch (error) {
    await stop(messageOf(error))
  } finally {
    ahead.close()
  }
}

type Moved = { changed: number; removed: number }

/**
 * Writes `page` and its cursor in one transaction, on top of the page whose
 * cursor is `after` (issue 14). Its writes are asked for at once, while the
 * transaction of the page before may still run: IndexedDB starts this one
 * when that one has ended (the same tables, asked for later), and meanwhile
 * this thread checks the next page and the database runs the writes it has.
 * Back to back, each page waited for the commit of the one before it before
 * its writes were even asked for. The first request reads the stored cursor:
 * if the page before was not written, it is not `after`, and this page's
 * writes are rolled back with it, so a page is never stored without the ones
 * before it.
 */
export function writeAfter(
  db: SyncDb,
  tables: Table[],
  page: PullResponse,
  after: string,
): Promise<Moved> {
  return db.transaction('rw', tables, async () => {
    const stored = db.meta.get(META.cursor)
    // The pull from nothing is one pass (each row sent once), so no row of it can be held:
    // no held versions to read (see pullToEnd).
    const moved = applyPage(db, page, page.reset, true)
    moved.catch(() => {})
    if ((await stored)?.value !== after) {
      throw new Error('The page before this one was not written.')
    }
    return await moved
  })
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * The browser's writer: a dedicated module worker (pull-worker.ts), or null
 * where there are no workers. A browser without module workers fails to load
 * it: that is an error event, reported as `stopped`.
 */
export function browserPageWriter(): PageWriterFactory | null {
  if (typeof Worker !== 'function') return null
  return (listen) => {
    const worker = new Worker(new URL('./pull-worker.ts', import.meta.url), {
      type: 'module',
      name: 'pairwise-pull',
    })
    let ended = false
    const end = (reason: string) => {
      if (ended) return
      ended = true
      worker.terminate()
      listen({ type: 'stopped', reason })
    }
    worker.onmessage = (event: MessageEvent<FromWriter>) => {
      if (ended) return
      const message = event.data
      if (message.type === 'stopped' || (message.type === 'page' && message.last)) ended = true
      listen(message)
    }
    worker.onerror = (event) => {
      event.preventDefault()
      end(`The page writer failed: ${event.message || 'it could not start'}.`)
    }
    worker.onmessageerror = () => end('A page writer message could not be read.')
    return {
      post: (message) => worker.postMessage(message),
      stop: () => {
        ended = true
        worker.terminate()
      },
    }
  }
}
