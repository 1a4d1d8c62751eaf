/** Retry delays: exponential, capped, with full jitter so devices that failed together spread out. */
export type BackoffOptions = {
  /** The cap of the first retry's delay. */
  baseMs: number
  /** No delay is longer. */
  maxMs: number
  /** No delay is shorter: a broken server is not hammered. */
  minMs: number
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1_000, maxMs: 5 * 60_000, minMs: 250 }

/**
 * The delay before retry number `attempt` (0 for the first): uniformly random
 * below min(maxMs, baseMs · 2^attempt) ("full jitter"), at least minMs.
 *
 * @example
 * backoffDelay(3, Math.random) // somewhere in [250, 8000) ms
 */
export function backoffDelay(
  attempt: number,
  random: () => number,
  options: BackoffOptions = DEFAULT_BACKOFF,
): number {
  const cap = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, Math.min(attempt, 30)))
  return Math.max(options.minMs, Math.floor(random() * cap))
}
