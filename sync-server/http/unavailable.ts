import postgres from 'postgres'

/**
 * Seconds a client should wait before retrying while the database is away: a
 * failover or restart usually takes a few seconds, and the PWA's outbox
 * backs off on its own beyond that.
 */
export const RETRY_AFTER_SECONDS = 2

/** Errors postgres.js raises itself when a connection is lost or cannot be made. */
const DRIVER_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
])

/** Socket errors of a database that is restarting, failing over or unreachable. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/**
 * Postgres SQLSTATEs of the same situation: class 08 (connection exception),
 * 57P01-57P03 (terminated by an administrator, crash or shutdown, starting up)
 * and 53300 (too many connections, as during a failover's reconnect storm).
 */
function isUnavailableState(code: string): boolean {
  return code.startsWith('08') || /^57P0[1-3]$/.test(code) || code === '53300'
}

/**
 * Whether an error means "the database cannot be reached right now" rather
 * than "this request is wrong" or "the server has a bug": such a request is
 * answered 503 with Retry-After, and the client tries again.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  if (typeof code !== 'string') return false
  if (error instanceof postgres.PostgresError) return isUnavailableState(code)
  return DRIVER_CODES.has(code) || SOCKET_CODES.has(code)
}
