import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import { type Handler, Hono } from 'hono'
import { compress } from 'hono/compress'
import { NONCE, secureHeaders } from 'hono/secure-headers'
import { adminReviewRoutes } from './admin/review.ts'
import { applicationRoutes, myApplicationRoutes } from './applications/routes.ts'
import { deviceRoutes } from './auth/devices.ts'
import { signInRateLimit } from './auth/rate-limit.ts'
import { authRoutes } from './auth/routes.ts'
import { loadSession } from './auth/sessions.ts'
import { clientEventRateLimit } from './client-events/rate-limit.ts'
import { clientEventRoutes } from './client-events/routes.ts'
import { dismissalRoutes, topicDismissalRoutes } from './dismissals/routes.ts'
import { limitBody } from './http/body-limit.ts'
import { compressJson } from './http/compress.ts'
import { refuseCrossSite } from './http/csrf.ts'
import type { AppEnv, Deps } from './http/env.ts'
import { handleError, problemResponse } from './http/errors.ts'
import type { Lifecycle } from './http/lifecycle.ts'
import { noSuchEndpoint } from './http/method-not-allowed.ts'
import { declaredRoutes } from './http/route.ts'
import { transactional } from './http/transaction.ts'
import { PLOT_STYLE_HASHES } from './insights/csp.ts'
import { exportRoutes, insightsRoutes } from './insights/routes.ts'
import { interestRoutes } from './interests/routes.ts'
import { invitationRoutes, topicInvitationRoutes } from './invitations/routes.ts'
import { unsubscribeRoutes } from './mail/unsubscribe-routes.ts'
import { recommendationRoutes, topicCandidateRoutes } from './matching/routes.ts'
import { notificationRoutes, preferenceRoutes } from './notifications/routes.ts'
import { createOpenApiRoutes } from './openapi/routes.ts'
import { pushRoutes } from './push/routes.ts'
import { followUpRoutes } from './reminders/follow-up.ts'
import { notificationActionRoutes } from './reminders/routes.ts'
import { settingsRoutes } from './settings/routes.ts'
import { replayableRoutes } from './sync/replayable.ts'
import { createSyncRoutes, type SyncOptions } from './sync/routes.ts'
import { topicApplicationRoutes } from './topics/applications.ts'
import { topicFeedbackRoutes } from './topics/feedback.ts'
import { topicLifecycleRoutes } from './topics/lifecycle.ts'
import { topicRoutes } from './topics/routes.ts'
import { adminUserRoutes, currentUserRoutes, userRoutes } from './users/routes.ts'

export type AppOptions = { sync?: SyncOptions; lifecycle?: Lifecycle }

/**
 * Builds the whole server: the API under /api, /healthz, and the built PWA.
 *
 * @example
 * const app = createApp({ sql, config })
 * const res = await app.request('/healthz')
 */
export function createApp(deps: Deps, options: AppOptions = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>()
  app.onError(handleError)
  if (options.lifecycle) app.use(options.lifecycle.track)
  app.use(async (c, next) => {
    c.set('deps', deps)
    const replayed = c.env?.replayedBody
    if (replayed !== undefined) {
      // Read as c.req.text() / json() read it: Hono keeps a read body as a promise in bodyCache
      // (its type says a function). No stream to build and read for a mutation a push replays.
      ;(c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(replayed)
    }
    await next()
  })
  const production = deps.config.NODE_ENV === 'production'
  const headers = secureHeaders({
    // No inline script anywhere: the built PWA loads only its own files. Server-rendered
    // pages (API reference, development sign-in) style themselves with a per-answer nonce.
    // Sign-in must stay a link, not a form: form-action would block the redirect to Microsoft.
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", NONCE, ...PLOT_STYLE_HASHES],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      manifestSrc: ["'self'"],
      workerSrc: ["'self'"],
      frameSrc: ["'none'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      ...(production ? { upgradeInsecureRequests: [] } : {}),
    },
    strictTransportSecurity: production ? 'max-age=31536000; includeSubDomains' : false,
    xFrameOptions: 'DENY',
    referrerPolicy: 'strict-origin-when-cross-origin',
    crossOriginEmbedderPolicy: false,
    permissionsPolicy: {
      camera: [],
      microphone: [],
      geolocation: [],
      payment: [],
      usb: [],
    },
  })
  // A mutation a sync push replays answers into the push's results, never onto the wire
  // (the push's own answer gets these headers): no nonce and policy to build for it.
  app.use((c, next) => (c.env?.batch ? next() : headers(c, next)))

  app.get('/healthz', async (c) => {
    // Shutting down: a load balancer stops sending here while the requests in flight finish.
    if (options.lifecycle?.draining) return problemResponse(503, 'This instance is shutting down.')
    try {
      await deps.sql`SELECT 1`
      return c.json({ status: 'ok' })
    } catch {
      return problemResponse(503, 'The database is not reachable.')
    }
  })

  const routes = () => declaredRoutes(app)
  // Sync push replays each mutation through the whole app, as if it came over HTTP.
  const sync = createSyncRoutes(
    {
      dispatch: async (request, batch, body) => app.fetch(request, { batch, replayedBody: body }),
      replayable: replayableRoutes(routes),
    },
    options.sync,
  )
  app.route('/api', createApi(deps, sync, createOpenApiRoutes(app), noSuchEndpoint(routes)))
  serveApp(app, deps)
  return app
}

function createApi(
  deps: Deps,
  sync: Hono<AppEnv>,
  openApi: ReturnType<typeof createOpenApiRoutes>,
  fallback: Handler<AppEnv>,
): Hono<AppEnv> {
  const api = new Hono<AppEnv>()
  // API answers are per user and change all the time: never cached. First, so that
  // answers the middleware below gives itself (413, 403, replays) carry it too.
  api.use(async (c, next) => {
    await next()
    c.res.headers.set('cache-control', 'no-store')
  })
  // JSON answers of 1 KB and more go brotli or gzip; event streams and CSV exports stream as they are.
  api.use(compressJson)
  api.use(limitBody(deps.config.BODY_LIMIT_BYTES))
  api.use(refuseCrossSite)
  // Counted on the pool before the request's transaction, so refused and failed attempts count.
  api.use('/auth/microsoft', signInRateLimit)
  api.use('/auth/dev-login', signInRateLimit)
  api.use('/client-events', clientEventRateLimit)
  api.use(loadSession)
  api.use(transactional)
  // Every feature at its own prefix, with paths relative to it.
  api.route('/auth', authRoutes)
  api.route('/user', currentUserRoutes)
  api.route('/user/sessions', deviceRoutes)
  api.route('/user/notification-preferences', preferenceRoutes)
  api.route('/users', userRoutes)
  api.route('/topics', topicRoutes)
  api.route('/topics', topicApplicationRoutes)
  api.route('/topics', topicLifecycleRoutes)
  api.route('/topics', topicFeedbackRoutes)
  api.route('/topics', topicDismissalRoutes)
  api.route('/topics', topicInvitationRoutes)
  api.route('/topics', topicCandidateRoutes)
  api.route('/recommendations', recommendationRoutes)
  api.route('/dismissals', dismissalRoutes)
  api.route('/invitations', invitationRoutes)
  api.route('/my-applications', myApplicationRoutes)
  api.route('/applications', applicationRoutes)
  api.route('/admin/topics', adminReviewRoutes)
  api.route('/admin/users', adminUserRoutes)
  api.route('/admin/settings', settingsRoutes)
  api.route('/notifications', notificationRoutes)
  api.route('/email', unsubscribeRoutes)
  api.route('/notifications', notificationActionRoutes)
  api.route('/admin/follow-up', followUpRoutes)
  api.route('/interests', interestRoutes)
  api.route('/push', pushRoutes)
  api.route('/admin/insights', insightsRoutes)
  api.route('/admin/export', exportRoutes)
  api.route('/client-events', clientEventRoutes)
  api.route('/sync', sync)
  api.route('/openapi.json', openApi.json)
  api.route('/docs', openApi.reference)
  api.all('*', fallback)
  return api
}

/** A year: files under /assets/ carry a hash of their content in their name. */
const IMMUTABLE = 'public, max-age=31536000, immutable'

/**
 * Serves the built PWA from STATIC_DIR, with index.html for every client-side
 * route: compressed (brotli or gzip made at build time; compressed on the fly
 * otherwise), hashed assets cached for good, everything else (the
 * service worker, the manifest, index.html) revalidated each time.
 */
function serveApp(app: Hono<AppEnv>, deps: Deps): void {
  const root = deps.config.STATIC_DIR
  const index = join(root, 'index.html')
  // Registered after the API, so it only ever sees the app's files (never the event stream).
  app.use('/*', compress())
  if (existsSync(root)) {
    app.use(
      '/*',
      serveStatic({
        root,
        // The build wrote .br and .gz beside each text file (vite.config.ts).
        precompressed: true,
        onFound: (path, c) => {
          c.header('cache-control', path.includes('/assets/') ? IMMUTABLE : 'no-cache')
        },
      }),
    )
  }
  app.get('*', async (c) => {
    if (!existsSync(index)) {
      return c.text(
        'The app has not been built yet: run `npm run build` (npm start does it for you).',
        503,
      )
    }
    c.header('cache-control', 'no-cache')
    return c.html(await readFile(index, 'utf8'))
  })
}
