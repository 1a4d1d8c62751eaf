import { z } from 'zod'

// The OpenAPI pieces a route declaration contributes (http/route.ts, http/input.ts):
// JSON Schema from the shared zod schemas, and problem+json error answers.

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input; `errors` lists the fields',
  401: 'Not signed in',
  403: 'Not allowed',
  404: 'Missing, or not visible to the caller',
  409: 'Conflicts with the current state',
  413: 'Body too large',
  422: 'Idempotency-Key reused for a different request',
}

/** A zod schema as JSON Schema: `input` for what a client sends, `output` for what it receives. */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      // A trimmed string with a minimum length refuses blanks: say so (the only
      // overwrite the shared schemas use is trim()).
      const def = zodSchema._zod.def as {
        type: string
        checks?: { _zod: { def: { check: string } } }[]
      }
      const trims =
        def.type === 'string' && def.checks?.some((c) => c._zod.def.check === 'overwrite')
      if (trims && (jsonSchema.minLength ?? 0) > 0 && jsonSchema.pattern === undefined) {
        jsonSchema.pattern = '\\S'
      }
    },
  }) as Record<string, unknown>
  return rest
}

/** An error answer of `status`: an RFC 9457 problem (components/schemas/Problem). */
export function problemResponseSpec(status: number) {
  return {
    description: ERROR_TEXT[status] ?? 'Error',
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  }
}
