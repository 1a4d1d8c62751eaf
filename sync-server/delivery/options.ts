// How the delivery worker paces, retries and logs; its own file so worker.ts and send-job.ts
// both read it without importing each other.

export type DeliveryOptions = {
  /** How long a claimed job is this worker's; then another may take it. Longer than a send. */
  leaseMs: number
  /** A send that takes longer is abandoned and retried. */
  sendTimeoutMs: number
  /** Safety net: look for due jobs at least this often, whatever woke us. */
  pollMs: number
  batchSize: number
  /** Attempts before a job is kept as failed. */
  maxAttempts: number
  /** Backoff before attempt n+1: about base·2^(n-1), at most max, with jitter. */
  backoffBaseMs: number
  backoffMaxMs: number
  log: { info: (line: string) => void; warn: (line: string) => void }
  random: () => number
  /**
   * How long an e-mail waits before it goes, so nothing read in the app
   * meanwhile is e-mailed (issue 18); EMAIL_DELAY_MINUTES, 15 by default.
   */
  emailDelayMs: number
  /** The clock quiet hours, local days and digests go by (tests move it). */
  now: () => Date
  /** How often the worker looks for daily digests that are due. */
  digestEveryMs: number
  /** Pushes a person a local day outside decisions (issue 18: 3); benchmarks lift it. */
  pushBudget: number
}

export const DEFAULT_DELIVERY_OPTIONS: DeliveryOptions = {
  leaseMs: 60_000,
  sendTimeoutMs: 15_000,
  pollMs: 5_000,
  batchSize: 20,
  maxAttempts: 10,
  backoffBaseMs: 5_000,
  backoffMaxMs: 60 * 60 * 1000,
  log: console,
  random: Math.random,
  emailDelayMs: 15 * 60 * 1000,
  now: () => new Date(),
  digestEveryMs: 60_000,
  pushBudget: 3,
}
