import { createHash } from 'node:crypto'
import type { Context } from 'hono'

/**
 * Answers `bytes` (JSON in UTF-8, hashed and sent as they are) with an ETag
 * made from a hash of the body, or 304 with no body when the request's
 * If-None-Match names it. The tag is weak
 * (W/): the same JSON is sent gzip, brotli or plain, which are different bytes.
 * A hash of the body changes whenever what this caller would see changes
 * (a mentor's new name included), which a max(updated_at) would miss.
 *
 * @example
 * return jsonTextWithETag(c, page.json)
 */
export function jsonTextWithETag(c: Context, bytes: Buffer): Response {
  const etag = `W/"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`
  c.header('etag', etag)
  if (matches(c.req.header('if-none-match'), etag)) return c.body(null, 304)
  return c.body(new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.length), 200, {
    'content-type': 'application/json',
  })
}

/** RFC 9110 §13.1.2: `*` or any listed tag, compared weakly (W/ ignored). */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  if (header.trim() === '*') return true
  const opaque = etag.replace(/^W\//, '')
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque)
}
