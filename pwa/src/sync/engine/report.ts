import type { ClientEvent } from '../../../../shared/client-events.ts'
import type { ResolvedOptions } from './options.ts'

/**
 * Sends a client event to the server's log (POST /api/client-events), once,
 * without waiting: a report that cannot be sent (offline, signed out) is
 * dropped, it must never hold up the app it describes.
 */
export function reportClientEvent(options: ResolvedOptions, event: ClientEvent): void {
  if (options.connectivity && !options.connectivity.isOnline()) return
  void options
    .fetch(`${options.baseUrl}/api/client-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(event),
    })
    .then((res) => res.body?.cancel())
    .catch(() => {})
}
