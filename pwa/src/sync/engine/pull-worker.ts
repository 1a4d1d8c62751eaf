// First: the schemas below must not probe for eval, which the CSP forbids (see public/boot.js).
import './zod-jitless.ts'
import { BROWSER_HTTP } from '../../lib/http.ts'
import { createSyncDb } from './db.ts'
import { type FromWriter, type ToWriter, writePages } from './page-writer.ts'

/**
 * The dedicated worker that writes a first sync's pages after the first
 * (page-writer.ts). One job per worker: the pull terminates it when the job
 * ends or the flush is given up.
 */

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<ToWriter>) => void) | null
  postMessage: (message: FromWriter) => void
}

let go: () => void = () => {}
const gone = new Promise<void>((resolve) => {
  go = resolve
})
let started = false

scope.onmessage = (event) => {
  const message = event.data
  if (message.type === 'go') return go()
  if (started) return
  started = true
  const { job } = message
  // Pull pages only: each comes again from the server if a crash loses it (db.ts, durability).
  const db = createSyncDb(job.dbName, { durability: 'relaxed' })
  const http = { ...BROWSER_HTTP, baseUrl: job.baseUrl, timeoutMs: job.timeoutMs }
  void writePages(
    db,
    http,
    job,
    gone,
    (m) => scope.postMessage(m),
    new AbortController().signal,
  ).finally(() => db.close())
}
