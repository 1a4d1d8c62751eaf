import type { Context } from 'hono'
import { ApiError } from './errors.ts'

/**
 * Reads a url-encoded or multipart form. A body that does not parse as the
 * form its Content-Type announces (a broken multipart boundary, say) is the
 * client's mistake: 400, not the parser's exception as a 500.
 *
 * @example
 * const form = await readForm(c)
 * const userId = typeof form.userId === 'string' ? form.userId : ''
 */
export async function readForm(
  c: Context,
): Promise<Record<string, string | File | (string | File)[]>> {
  try {
    return await c.req.parseBody()
  } catch {
    throw new ApiError(400, 'The form data in the request body could not be read.')
  }
}
