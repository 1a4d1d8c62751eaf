/**
 * The outcome of a permission or transition check. A refusal carries the HTTP
 * status the server answers with and a sentence a person can read, so the
 * server and the PWA explain a refusal in the same words.
 *
 * @example
 * const d = checkStartTopic(actor, topic)
 * if (!d.ok) throw new ApiError(d.status, d.reason)
 */
export type Decision = { ok: true } | { ok: false; status: 403 | 409; reason: string }

export const allow: Decision = { ok: true }

export function forbid(reason: string): Decision {
  return { ok: false, status: 403, reason }
}

export function conflict(reason: string): Decision {
  return { ok: false, status: 409, reason }
}

/** Who is acting: enough of a user to decide permissions. */
export type Actor = { id: string; isAdmin: boolean }
