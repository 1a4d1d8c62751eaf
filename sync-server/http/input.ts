import { createMiddleware } from 'hono/factory'
import { uniqueSymbol } from 'hono-openapi'
import type { z } from 'zod'
import type { AppEnv, Deps } from './env.ts'
import { validationError } from './errors.ts'
import { jsonSchema, problemResponseSpec } from './openapi-spec.ts'
import { readBody } from './validate.ts'

/**
 * Declares a route's JSON body once: it is documented as the route's request
 * body, and the handler reads it validated with `await c.var.body()` (400
 * with field errors, 415 for a body that is not JSON, an empty body read as
 * `{}`). Read on demand, so a route answers 401/403/404 before judging input.
 *
 * @example
 * topicRoutes.post('/', route({…}), body(topicInputSchema), async (c) => {
 *   const input = await c.var.body()
 * })
 */
export function body<S extends z.ZodType>(
  schema: S | ((deps: Deps) => S),
  /** What the document shows: required when the schema depends on the configuration. */
  documented: z.ZodType = typeof schema === 'function' ? never() : schema,
) {
  const middleware = createMiddleware<AppEnv & { Variables: { body: () => Promise<z.output<S>> } }>(
    async (c, next) => {
      let read: Promise<z.output<S>> | undefined
      c.set('body', () => {
        read ??= readBody(c, typeof schema === 'function' ? schema(c.get('deps')) : schema)
        return read
      })
      await next()
    },
  )
  return Object.assign(middleware, {
    [uniqueSymbol]: {
      spec: {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: jsonSchema(documented, 'input') } },
        },
        responses: { 400: problemResponseSpec(400) },
      },
    },
  })
}

function never(): never {
  throw new Error(
    'body(schemaFor, documented): a schema chosen by configuration needs the one to document.',
  )
}

/**
 * Declares a route's query parameters once (an object schema): documented one
 * by one, read validated with `c.var.query()` (400 with field errors).
 */
export function query<S extends z.ZodObject>(schema: S) {
  const middleware = createMiddleware<{ Variables: { query: () => z.output<S> } }>(
    async (c, next) => {
      c.set('query', () => {
        const result = schema.safeParse(c.req.query())
        if (!result.success) throw validationError(result.error)
        return result.data
      })
      await next()
    },
  )
  const documented = jsonSchema(schema, 'input')
  const properties = (documented.properties ?? {}) as Record<string, object>
  const required = new Set((documented.required ?? []) as string[])
  return Object.assign(middleware, {
    [uniqueSymbol]: {
      spec: {
        parameters: Object.entries(properties).map(([name, schema]) => ({
          name,
          in: 'query',
          required: required.has(name),
          schema,
        })),
        responses: { 400: problemResponseSpec(400) },
      },
    },
  })
}
