import { z } from 'zod'
import { problemSchema } from '../../shared/problem.ts'
import { ENDPOINTS, type Endpoint } from './endpoints.ts'

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input; `errors` lists the fields',
  401: 'Not signed in',
  403: 'Not allowed',
  404: 'Missing, or not visible to the caller',
  409: 'Conflicts with the current state',
  413: 'Body too large',
  422: 'Idempotency-Key reused for a different request',
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output') {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >
  return rest
}

const problemResponse = (status: number) => ({
  description: ERROR_TEXT[status] ?? 'Error',
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
})

function operation(endpoint: Endpoint) {
  const params = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }))
  const query = endpoint.query
    ? Object.entries(jsonSchema(endpoint.query, 'input').properties as Record<string, object>).map(
        ([name, schema]) => ({ name, in: 'query', required: false, schema }),
      )
    : []
  const mutating = endpoint.method !== 'GET'
  const headers =
    mutating && endpoint.idempotencyKey !== false
      ? [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description:
              'Makes the request safe to retry: the same key answers the stored result (Idempotent-Replayed: true) without applying again.',
            schema: { type: 'string', maxLength: 255 },
          },
        ]
      : []
  const statuses = [
    ...new Set([
      ...(endpoint.body || endpoint.query ? [400] : []),
      ...endpoint.errors,
      ...(mutating && endpoint.auth ? [413] : []),
      ...(mutating && endpoint.auth && endpoint.idempotencyKey !== false ? [422] : []),
    ]),
  ]
  return {
    tags: [endpoint.tag],
    summary: endpoint.summary,
    description: endpoint.description,
    operationId: `${endpoint.method.toLowerCase()}${endpoint.path.replace(/[{}]/g, '').replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase())}`,
    ...(endpoint.auth ? {} : { security: [] }),
    parameters: [...params, ...query, ...headers],
    ...(endpoint.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(endpoint.body, 'input') } },
          },
        }
      : {}),
    responses: {
      ...(endpoint.response
        ? {
            [endpoint.response.status]: {
              description: endpoint.response.description,
              content: {
                [endpoint.response.mediaType ?? 'application/json']: {
                  schema: jsonSchema(endpoint.response.schema, 'output'),
                },
              },
            },
          }
        : { 302: { description: 'Redirect to /' } }),
      ...Object.fromEntries(statuses.sort().map((s) => [s, problemResponse(s)])),
    },
  }
}

/** The OpenAPI 3.1 document of the API, generated from the shared zod schemas. */
export function buildOpenApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const endpoint of ENDPOINTS) {
    const path = `/api${endpoint.path}`
    paths[path] ??= {}
    paths[path][endpoint.method.toLowerCase()] = operation(endpoint)
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pairwise API',
      version: '1.0.0',
      description:
        'The REST API of the Pairwise mentorship programme. Everything the app does, a plain HTTP client can do with these calls. Sign in with the session cookie; errors are RFC 9457 problem details whose detail field is a readable sentence.',
    },
    servers: [{ url: '/' }],
    security: [{ session: [] }],
    tags: [...new Set(ENDPOINTS.map((e) => e.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'pairwise_session',
          description: '`__Host-pairwise_session` in production',
        },
      },
      schemas: { Problem: jsonSchema(problemSchema, 'output') },
    },
  }
}
