import { type FollowUp, followUpSchema } from '../../../../shared/follow-up.ts'
import { BROWSER_HTTP, detailOf, request } from '../../lib/http.ts'

export type FollowUpState =
  | { kind: 'loading' }
  | { kind: 'offline' }
  | { kind: 'error'; detail: string }
  | { kind: 'ready'; lists: FollowUp }

/**
 * GET /api/admin/follow-up: what administrators should look at (issue 18).
 * Computed on the server from every row and not synced, so it is an online
 * read, like insights; no answer at all is "offline".
 */
export async function fetchFollowUp(): Promise<FollowUpState> {
  let answer: Awaited<ReturnType<typeof request>>
  try {
    answer = await request(BROWSER_HTTP, 'GET', '/api/admin/follow-up', undefined)
  } catch {
    return { kind: 'offline' }
  }
  if (answer.status >= 400) return { kind: 'error', detail: detailOf(answer) }
  const parsed = followUpSchema.safeParse(answer.body)
  return parsed.success
    ? { kind: 'ready', lists: parsed.data }
    : { kind: 'error', detail: 'The server answered in a form this app does not know.' }
}
