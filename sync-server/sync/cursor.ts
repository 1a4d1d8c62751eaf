import { z } from 'zod'
import { ApiError } from '../http/errors.ts'
import { decodeOpaque, encodeOpaque } from '../http/opaque.ts'

/** The cursor format; a cursor of another format is refused. */
const FORMAT = 1

const xid = z.string().regex(/^\d{1,20}$/)

/**
 * Where a client stands. `w` is the watermark: every transaction below it had
 * finished, and the client has all their rows. While a pass is under way, `x`
 * is the watermark the pass brings the client to (taken at time `y`), and
 * `s`/`k` the stage (table) and the last key sent. `u` binds the cursor to a user, `a` records whether the
 * user was an administrator (what they could see), `t` when `w` was taken.
 */
const cursorSchema = z.strictObject({
  v: z.literal(FORMAT),
  u: z.uuid(),
  a: z.boolean(),
  t: z.number().int().nonnegative(),
  w: xid,
  x: xid.optional(),
  y: z.number().int().nonnegative().optional(),
  s: z.number().int().min(0).max(16).optional(),
  k: z.string().max(300).optional(),
})
export type Cursor = z.infer<typeof cursorSchema>

/** The cursor of a client that has nothing yet. */
export function initialCursor(userId: string, isAdmin: boolean): Cursor {
  return { v: FORMAT, u: userId, a: isAdmin, t: Date.now(), w: '0' }
}

export function encodeCursor(cursor: Cursor): string {
  return encodeOpaque(cursor)
}

/**
 * Reads a cursor the server gave this user. Anything else (not base64url
 * JSON, another format, another user's cursor) is a 400: a client that gets
 * it should drop its cursor and its rows and sync from the beginning.
 */
export function decodeCursor(text: string, userId: string): Cursor {
  const cursor = decodeOpaque(text, cursorSchema)
  if (!cursor) {
    throw new ApiError(400, 'The sync cursor is not valid. Sync again from the beginning.')
  }
  if (cursor.u !== userId.toLowerCase()) {
    throw new ApiError(
      400,
      'This sync cursor belongs to another user. Sync again from the beginning.',
    )
  }
  if (BigInt(cursor.w) > BigInt(cursor.x ?? cursor.w)) {
    throw new ApiError(400, 'The sync cursor is not valid. Sync again from the beginning.')
  }
  return cursor
}
