import type { z } from 'zod'

/**
 * Opaque tokens the server issues and reads back (sync cursors, topic list
 * cursors): JSON in base64url, checked against a schema when read.
 */
export function encodeOpaque(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url')
}

/** The value of a token `encodeOpaque` made and `schema` accepts, or undefined for anything else. */
export function decodeOpaque<S extends z.ZodType>(
  text: string,
  schema: S,
): z.output<S> | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
  const parsed = schema.safeParse(value)
  return parsed.success ? parsed.data : undefined
}
