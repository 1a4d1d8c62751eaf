import type { Context } from 'hono'
import { z } from 'zod'
import type { Decision } from '../../shared/decision.ts'
import { ApiError, validationError } from './errors.ts'

/**
 * Reads and validates a JSON body with a shared schema. An empty body counts
 * as `{}`, so routes that take no body accept either.
 *
 * @example
 * const input = await readBody(c, topicInputSchema)
 */
export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const text = await c.req.text()
  let value: unknown = {}
  if (text.trim() !== '') {
    const type = c.req.header('content-type') ?? ''
    if (type && !/^application\/([a-z.+-]*\+)?json\b/i.test(type)) {
      throw new ApiError(415, 'Send the request body as JSON (Content-Type: application/json).')
    }
    try {
      value = JSON.parse(text)
    } catch {
      throw new ApiError(400, 'The request body is not valid JSON.')
    }
  }
  const result = schema.safeParse(value)
  if (!result.success) throw validationError(result.error)
  return result.data
}

const uuidSchema = z.uuid()

/** A path id that is not a UUID cannot name anything: answer 404 with the given sentence. */
export function parseId(value: string | undefined, notFound: string): string {
  if (!value || !uuidSchema.safeParse(value).success) throw new ApiError(404, notFound)
  return value.toLowerCase()
}

/** Asserts a row was found. */
export function found<T>(row: T | undefined | null, notFound: string): T {
  if (row === undefined || row === null) throw new ApiError(404, notFound)
  return row
}

/** Turns a refused shared-rule decision into the error the server answers with. */
export function enforce(decision: Decision): void {
  if (!decision.ok) throw new ApiError(decision.status, decision.reason)
}
