import { createHash } from 'node:crypto'
import { z } from 'zod'
import type { TopicSearchQuery } from '../../shared/topic.ts'
import { ApiError } from '../http/errors.ts'
import { decodeOpaque, encodeOpaque } from '../http/opaque.ts'

/** Where the next page of GET /api/topics starts: the ordering key of the last topic sent. */
export type TopicPageKey = {
  /** The search rank of the last topic (0 without `q`). */
  rank: number
  /** Its created_at in UTC to the microsecond (a JS Date would lose them): 2026-11-26T09:53:49.123456Z. */
  createdAt: string
  id: string
}

const FORMAT = 1

const cursorSchema = z.strictObject({
  v: z.literal(FORMAT),
  /** The filters and search the cursor was issued for. */
  f: z.string().max(32),
  r: z.number().finite().nonnegative(),
  c: z
    .string()
    .regex(/^[12]\d{3}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
    .refine(isRealTime),
  i: z.uuid(),
})

/** A time that exists (not 25:00 or 30 February), so Postgres reads it without an error. */
function isRealTime(text: string): boolean {
  const ms = Date.parse(`${text.slice(0, 19)}Z`)
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 19) === text.slice(0, 19)
}

const INVALID = 'The cursor is not valid. Ask for the first page again.'

/** A short fingerprint of what selects the topics, so a cursor only continues the same list. */
function fingerprint(query: TopicSearchQuery): string {
  const { location, seniority, status, q } = query
  return createHash('sha256')
    .update(JSON.stringify([location, seniority, status, q]))
    .digest('base64url')
    .slice(0, 16)
}

/** An opaque cursor (base64url JSON) for the page after `key`, issued for `query`. */
export function encodePageCursor(query: TopicSearchQuery, key: TopicPageKey): string {
  const cursor = { v: FORMAT, f: fingerprint(query), r: key.rank, c: key.createdAt, i: key.id }
  return encodeOpaque(cursor)
}

/**
 * Reads a cursor this server issued for the same filters and search; anything
 * else (not base64url JSON, another format, another list's cursor) is a 400.
 */
export function decodePageCursor(text: string, query: TopicSearchQuery): TopicPageKey {
  const cursor = decodeOpaque(text, cursorSchema)
  if (!cursor) throw new ApiError(400, INVALID)
  if (cursor.f !== fingerprint(query)) {
    throw new ApiError(
      400,
      'This cursor belongs to a list with other filters or another search. Ask for the first page again.',
    )
  }
  return { rank: cursor.r, createdAt: cursor.c, id: cursor.i.toLowerCase() }
}
