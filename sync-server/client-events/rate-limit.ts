import { CLIENT_EVENT_RATE_LIMIT } from '../../shared/client-events.ts'
import { rateLimit } from '../http/rate-limit.ts'

/**
 * Stall reports per minute from one client address. Mounted in app.ts before
 * the request's transaction, as the sign-in limit is: it counts on the pool,
 * and the embedded database has a single connection for both.
 */
export const clientEventRateLimit = rateLimit({
  name: 'client-events',
  limit: () => CLIENT_EVENT_RATE_LIMIT,
  windowSeconds: 60,
})
