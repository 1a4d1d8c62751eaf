import { z } from 'zod'

/** An error answer (RFC 9457 problem details) as ARCHITECTURE.md fixes it. */
export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
})
export type Problem = z.infer<typeof problemSchema>

export type FieldError = { path: string; message: string }

/**
 * The 400 answer for input a shared schema refused: every field error, and a
 * sentence naming the first. The server answers it; the PWA shows the same
 * words when it refuses a write before queueing it.
 */
export function invalidInput(error: z.ZodError): { detail: string; errors: FieldError[] } {
  const errors = error.issues.map((issue) => ({
    path: issue.path.join('.'),
    message: issue.message,
  }))
  const first = errors[0]
  const detail = first
    ? `${first.message}${first.path && !first.message.includes(first.path) ? ` (${first.path})` : ''}.`
    : 'The request is not valid.'
  return { detail: detail.replace(/\.\.$/, '.'), errors }
}
