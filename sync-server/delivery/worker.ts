import { randomUUID } from 'node:crypto'
import type { Config } from '../config.ts'
import type { Sql } from '../db/connect.ts'
import { createMailer, type Mailer } from '../mail/send.ts'
import { runDigests } from './digest.ts'
import { DEFAULT_DELIVERY_OPTIONS, type DeliveryOptions } from './options.ts'
import { claimJobs, DELIVERY_CHANNEL, type DeliveryJob, deferJobs, nextDueInMs } from './queue.ts'
import { type Outcome, sendDigestJob, sendEmailJob, sendPushJob, settleJob } from './send-job.ts'
import { onDeliveryWake } from './wake.ts'

type HeldBack = Parameters<typeof deferJobs>[2][number]

export type DeliveryWorker = {
  /** Finishes the sends in flight (at most sendTimeoutMs), then stops. */
  stop: () => Promise<void>
  /** Stops at once, as a crash would: sends are cut and nothing more is written. */
  kill: () => Promise<void>
  /** Resolves once the worker listens (PostgreSQL) or polls (embedded). */
  ready: Promise<'listen' | 'poll'>
}

/**
 * Sends the queued pushes and e-mails (decision 0009). Wakes on the commit
 * NOTIFY of any instance on PostgreSQL, in-process on embedded PGlite (whose
 * NOTIFY does not cross connections), when the next retry or lease is due,
 * and every pollMs regardless. Several workers, in one process or many,
 * share the queue: a job is claimed by one of them at a time.
 *
 * @example
 * const worker = startDeliveryWorker(sql, config)
 * await worker.stop()
 */
export function startDeliveryWorker(
  sql: Sql,
  config: Config,
  overrides: Partial<DeliveryOptions> = {},
): DeliveryWorker {
  const options = {
    ...DEFAULT_DELIVERY_OPTIONS,
    emailDelayMs: config.EMAIL_DELAY_MINUTES * 60 * 1000,
    ...overrides,
  }
  const workerId = randomUUID()
  const mailer: Mailer = createMailer(config, options.log.info)
  const aborter = new AbortController()
  let running = true
  let killed = false
  let busy: Promise<void> | undefined
  let again = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let unlisten: (() => Promise<void>) | undefined
  const stopWake = onDeliveryWake(() => {
    if (mode === 'poll') kick()
  })
  let mode: 'listen' | 'poll' | undefined

  const context = { sql, config, options, signal: aborter.signal, mailer }

  /** Sends a job and settles it, or, when it is held back, adds it to `deferred` (the batch writes those together). */
  async function processJob(job: DeliveryJob, deferred: HeldBack[]): Promise<void> {
    let outcome: Outcome
    try {
      outcome =
        job.kind === 'push'
          ? await sendPushJob(context, job)
          : job.kind === 'digest'
            ? await sendDigestJob(context, job)
            : await sendEmailJob(context, job)
    } catch (error) {
      outcome = { result: 'retry', error: error instanceof Error ? error.message : String(error) }
    }
    // A killed worker writes nothing more: its jobs come back when their lease ends.
    if (killed) return
    // Holding back sent nothing, so its write can wait for the batch's others.
    if (outcome.result === 'defer') {
      deferred.push({ id: job.id, until: outcome.until, reason: outcome.reason })
      return
    }
    await settleJob(context, workerId, job, outcome)
  }

  let digestsAt = 0

  async function drain(): Promise<void> {
    if (Date.now() - digestsAt >= options.digestEveryMs) {
      digestsAt = Date.now()
      await runDigests(sql, { now: options.now() })
    }
    while (running) {
      const jobs = await claimJobs(sql, workerId, options.batchSize, options.leaseMs)
      if (jobs.length === 0 || killed) return
      const deferred: HeldBack[] = []
      await Promise.all(jobs.map((job) => processJob(job, deferred)))
      if (killed) return
      await deferJobs(sql, workerId, deferred)
    }
  }

  async function schedule(): Promise<void> {
    const due = running ? await nextDueInMs(sql) : undefined
    if (!running) return
    const delay = Math.min(options.pollMs, Math.max(0, due ?? options.pollMs))
    clearTimeout(timer)
    timer = setTimeout(kick, delay + 5)
    timer.unref()
  }

  function kick(): void {
    if (!running) return
    if (busy) {
      again = true
      return
    }
    busy = (async () => {
      do {
        again = false
        try {
          await drain()
          await schedule()
        } catch (error) {
          if (!running) break
          options.log.warn(
            `Delivery worker: ${error instanceof Error ? error.message : String(error)}`,
          )
          clearTimeout(timer)
          timer = setTimeout(kick, options.pollMs)
          timer.unref()
        }
      } while (again && running)
    })().finally(() => {
      busy = undefined
    })
  }

  const ready = detectMode(sql, kick).then(
    (result) => {
      mode = result.mode
      unlisten = result.unlisten
      if (!running) void unlisten?.()
      kick()
      return result.mode
    },
    (error: unknown) => {
      options.log.warn(`Delivery worker could not start: ${String(error)}`)
      mode = 'poll'
      kick()
      return 'poll' as const
    },
  )

  async function halt(): Promise<void> {
    running = false
    clearTimeout(timer)
    stopWake()
    await ready
    await unlisten?.().catch(() => {})
  }

  return {
    ready,
    stop: async () => {
      if (!running) return
      const halted = halt()
      await busy
      await halted
      mailer.close()
    },
    kill: async () => {
      killed = true
      aborter.abort(new Error('The delivery worker was stopped.'))
      await halt()
      mailer.close()
    },
  }
}

/** LISTEN on PostgreSQL; embedded PGlite only notifies the committing connection, so poll. */
async function detectMode(
  sql: Sql,
  onNotify: () => void,
): Promise<{ mode: 'listen' | 'poll'; unlisten?: () => Promise<void> }> {
  const [row] = await sql<{ version: string }[]>`SELECT version()`
  if (row?.version.includes('PGlite')) return { mode: 'poll' }
  // On reconnect postgres.js listens again; anything queued meanwhile is found by the next claim.
  const listener = await sql.listen(DELIVERY_CHANNEL, onNotify, onNotify)
  return { mode: 'listen', unlisten: listener.unlisten }
}
