import type { ServerType } from '@hono/node-server'

/**
 * How long an idle keep-alive connection stays open: 65 s, not Node's 5 s.
 *
 * - A mentor watching the dashboard makes no request for minutes; with 5 s,
 *   the pull a poke starts first opens a new connection (and, behind TLS, a
 *   handshake), which is time on the way to the screen (issue 20).
 * - Behind a load balancer, the instance must keep idle connections longer
 *   than the balancer does (60 s by default on the common cloud ones), or the
 *   balancer may send a request on a connection the instance is closing, and
 *   its client gets a 502.
 *
 * Shutdown closes idle connections itself (sync-server/shutdown.ts), so a
 * longer timeout does not slow a rolling restart.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000

export function keepConnectionsAlive(server: ServerType): void {
  if (!('keepAliveTimeout' in server)) return
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS
  // A request's headers may take as long as the connection may idle, plus a second.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000
}
