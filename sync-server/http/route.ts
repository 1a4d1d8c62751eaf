import type { Context, Hono, MiddlewareHandler } from 'hono'
import { matchedRoutes } from 'hono/route'
import { findTargetHandler } from 'hono/utils/handler'
import { describeRoute } from 'hono-openapi'
import type { z } from 'zod'
import type { AppEnv } from './env.ts'
import { jsonSchema, problemResponseSpec } from './openapi-spec.ts'

/**
 * What a route declares about itself, once: its documentation (tag, summary,
 * description, success answer, error statuses) and how the API's shared
 * middleware treats it. `route()` turns it into the route's first middleware;
 * /api/openapi.json, /api/docs and the sync push allow-list read it back
 * from the registered app.
 */
export type RouteSpec = {
  tag: string
  summary: string
  description: string
  /** Signed-in users only, unless false (sign-in and sign-out themselves). */
  auth?: false
  response?: {
    status: number
    schema: z.ZodType
    description: string
    mediaType?: string
    /** Another success status with the same body (200 when a POST finds the thing it would create). */
    also?: { status: number; description: string }
    /** Response headers it sets, name → description (ETag, Link). */
    headers?: Record<string, string>
    /** Answers 304 with no body for a current If-None-Match (http/etag.ts). */
    notModified?: true
  }
  /** Error statuses it can answer besides 400 (declared by body() and query()), 413 and 422. */
  errors: number[]
  /** Error statuses it answers as an HTML page for a person (a link from an e-mail), not a problem. */
  pageErrors?: number[]
  /** A mutation that takes no Idempotency-Key of its own (sync push: each mutation has one). */
  idempotencyKey?: false
  /** False for a mutation that must happen online, never queued and replayed by sync push. */
  replayable?: false
  /** Runs without the request transaction of http/transaction.ts (it opens its own). */
  ownTransaction?: true
  /** A body limit above BODY_LIMIT_BYTES (a batch of bodies). */
  bodyLimitBytes?: number
}

export type RouteOptions = Pick<
  RouteSpec,
  'auth' | 'idempotencyKey' | 'replayable' | 'ownTransaction' | 'bodyLimitBytes'
>

const OPTIONS = Symbol('route options')

/**
 * Declares a route: the first middleware of its registration.
 *
 * @example
 * topicRoutes.get('/:id', route({ tag: 'Topics', summary: 'Read a topic', … }), handler)
 */
export function route(spec: RouteSpec): MiddlewareHandler {
  const { tag, summary, description, response, errors, pageErrors = [], ...options } = spec
  const content = response && {
    [response.mediaType ?? 'application/json']: { schema: jsonSchema(response.schema, 'output') },
  }
  const headers = response?.headers && {
    headers: Object.fromEntries(
      Object.entries(response.headers).map(([name, text]) => [
        name,
        { description: text, schema: { type: 'string' } },
      ]),
    ),
  }
  const success: Record<number, object> = response
    ? { [response.status]: { description: response.description, content, ...headers } }
    : { 302: { description: 'Redirect to /' } }
  if (response?.also) {
    success[response.also.status] = { description: response.also.description, content }
  }
  if (response?.notModified) {
    success[304] = { description: 'Not modified: the If-None-Match tag is still current' }
  }
  const described = describeRoute({
    operationId,
    tags: [tag],
    summary,
    description,
    ...(options.auth === false ? { security: [] } : {}),
    ...(options.idempotencyKey === false ? { 'x-idempotency-key': false } : {}),
    responses: {
      ...success,
      ...Object.fromEntries(errors.map((status) => [status, problemResponseSpec(status)])),
      ...Object.fromEntries(
        pageErrors.map((status) => [
          status,
          {
            description: 'A page saying what went wrong',
            content: { 'text/html': { schema: { type: 'string' } } },
          },
        ]),
      ),
    },
  })
  return Object.assign(described, { [OPTIONS]: options })
}

/** `PATCH /api/topics/:id` → `patchTopicsId`: stable names for generated clients. */
function operationId(r: { method: string; path: string }): string {
  const path = r.path.replace(/^\/api/, '').replace(/[:{}]/g, '')
  return `${r.method.toLowerCase()}${path.replace(/[/-](\w)/g, (_, ch: string) => ch.toUpperCase())}`
}

/** The options a registered handler was declared with, if it is a route() middleware. */
function optionsOf(handler: unknown): RouteOptions | undefined {
  const target = findTargetHandler(handler as MiddlewareHandler) as { [OPTIONS]?: RouteOptions }
  return target[OPTIONS]
}

/**
 * The options of the route a request matched, for the API's shared
 * middleware (body limit, transaction), which runs before the route's own.
 */
export function currentRouteOptions(c: Context<AppEnv>): RouteOptions {
  for (const matched of matchedRoutes(c)) {
    const options = optionsOf(matched.handler)
    if (options) return options
  }
  return {}
}

export type DeclaredRoute = { method: string; path: string; options: RouteOptions }

/** Every declared route of `app`, with its full path (Hono syntax, e.g. /api/topics/:id). */
export function declaredRoutes(app: Hono<AppEnv>): DeclaredRoute[] {
  const routes: DeclaredRoute[] = []
  for (const r of app.routes) {
    const options = optionsOf(r.handler)
    if (options) routes.push({ method: r.method, path: r.path, options })
  }
  return routes
}
