import type { ServerType } from '@hono/node-server'
import type { Lifecycle } from './http/lifecycle.ts'
import { closeEventStreams } from './sync/events.ts'

export type ShutdownSteps = {
  server: ServerType
  lifecycle: Lifecycle
  /** How long /healthz answers 503 before the server stops listening. */
  drainMs: number
  /** The whole shutdown's budget, drain included. */
  timeoutMs: number
  /** Background work that ends cleanly given time (the delivery worker, housekeeping). */
  stopWorkers: () => Promise<void>
  /** Closes the database pool; called last, once no request can use it any more. */
  closeDatabase: () => Promise<void>
  log: (line: string) => void
}

/** What closing the pool needs at the end of the budget: ending its connections cleanly. */
const DATABASE_CLOSE_RESERVE_MS = 1000
/** Event stream clients are told to reconnect after 1-2 s: by then the balancer knows. */
const EVENT_STREAM_RETRY_MS = 1000

/**
 * Stops one instance without failing a request (decision 0022):
 *
 * 1. drain: /healthz answers 503 and every answer closes its keep-alive
 *    connection, while requests are still served, so a load balancer that
 *    checks health moves the traffic to other instances;
 * 2. stop listening, end idle keep-alive connections and the event streams
 *    (with a reconnect hint), let the requests in flight and the delivery
 *    worker's sends finish;
 * 3. only then close the database pool.
 *
 * Resolves within `timeoutMs`: connections still open at the end are cut.
 */
export async function shutDown(steps: ShutdownSteps): Promise<void> {
  const deadline = Date.now() + steps.timeoutMs - DATABASE_CLOSE_RESERVE_MS
  const { server, lifecycle } = steps
  lifecycle.startDraining()
  // Other instances keep delivering: this one takes no new jobs and finishes its sends.
  const workersStopped = steps.stopWorkers().catch((error: unknown) => {
    steps.log(`Stopping the background work failed: ${String(error)}`)
  })
  await sleep(Math.min(steps.drainMs, Math.max(0, deadline - Date.now())))

  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  const streams = closeEventStreams(EVENT_STREAM_RETRY_MS)
  if ('closeIdleConnections' in server) server.closeIdleConnections()
  steps.log(
    `Stopped listening; finishing ${lifecycle.requestsInFlight} request(s) and ${streams} event stream(s).`,
  )
  // Connections that were busy become idle once their answer is sent: end them too.
  const sweep = setInterval(() => {
    if ('closeIdleConnections' in server) server.closeIdleConnections()
  }, 50)
  const finished = await within(
    Promise.all([closed, lifecycle.idle(), workersStopped]),
    deadline - Date.now(),
  )
  clearInterval(sweep)
  if (!finished) {
    steps.log('Shutdown took too long: cutting the connections still open.')
    if ('closeAllConnections' in server) server.closeAllConnections()
  }
  await within(steps.closeDatabase(), DATABASE_CLOSE_RESERVE_MS)
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Whether `work` settled within `ms`. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms))
  })
  try {
    return await Promise.race([work.then(() => true), timeout])
  } finally {
    clearTimeout(timer)
  }
}
