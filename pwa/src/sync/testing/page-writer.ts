import { BROWSER_HTTP, type FetchLike } from '../../lib/http.ts'
import { createSyncDb } from '../engine/db.ts'
import {
  type FromWriter,
  type PageWriterFactory,
  type ToWriter,
  writePages,
} from '../engine/page-writer.ts'

/** What a test's page writer did, for its assertions. */
export type WriterLog = {
  /** Writers started (one per pull from nothing that had more than one page). */
  started: number
  /** Writers the pull stopped. */
  stopped: number
  /** Every message the writers sent, in order. */
  messages: FromWriter[]
}

/**
 * The page writer of the browser (page-writer.ts) run in this thread: the same
 * `writePages` on a database connection of its own, through `fetch` (a test's
 * network), its messages delivered a turn later as a worker's are. `stop`
 * gives it up: its requests abort and it writes nothing more.
 */
export function inProcessPageWriter(fetch: FetchLike): PageWriterFactory & { log: WriterLog } {
  const log: WriterLog = { started: 0, stopped: 0, messages: [] }
  const factory = (listen: (message: FromWriter) => void) => {
    const abort = new AbortController()
    let go: () => void = () => {}
    const gone = new Promise<void>((resolve) => {
      go = resolve
    })
    const deliver = (message: FromWriter) => {
      if (abort.signal.aborted) return
      log.messages.push(message)
      setTimeout(() => {
        if (!abort.signal.aborted) listen(message)
      }, 0)
    }
    return {
      post(message: ToWriter) {
        if (message.type === 'go') return go()
        log.started += 1
        const { job } = message
        const db = createSyncDb(job.dbName)
        const http = { ...BROWSER_HTTP, fetch, baseUrl: job.baseUrl, timeoutMs: job.timeoutMs }
        void writePages(db, http, job, gone, deliver, abort.signal).finally(() => db.close())
      },
      stop() {
        if (abort.signal.aborted) return
        log.stopped += 1
        abort.abort()
        go()
      },
    }
  }
  return Object.assign(factory, { log })
}
