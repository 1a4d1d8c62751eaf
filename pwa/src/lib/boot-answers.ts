import { type Answer, answerOf, noAnswer } from './http.ts'

/**
 * The requests public/boot.js sends before the app's modules have loaded
 * (its third job): the session check, and a new device's first pull page and
 * GET /api/user as the check answers. The app takes each one once, here,
 * instead of asking again; without boot.js (tests, a page that failed to run
 * it) there are none and the app asks itself. The format is boot.js's: keep
 * both in step.
 */

type Raw = { status: number; statusText: string; text: string }
type Sent = { path: string; answer: Promise<Raw>; abort: AbortController }
type Boot = {
  session: Sent | null
  firstPage: { userId: string; page: Sent; user: Sent; taken: boolean } | null
}

function boot(): Boot | undefined {
  return (globalThis as { __pairwiseBoot?: Boot }).__pairwiseBoot
}

/** A request of boot.js's as the app's HTTP client answers it (request() in http.ts). */
function answerOfSent(sent: Sent): Promise<Answer> {
  return sent.answer.then(
    (raw) => answerOf(raw.status, raw.statusText, raw.text),
    (reason: unknown) => {
      throw noAnswer(
        reason === 'timeout' || reason === 'aborted' ? reason : 'network',
        'GET',
        sent.path,
      )
    },
  )
}

/** The session check boot.js sent, taken once; null when there is none left. */
export function takeBootSession(): Promise<Answer> | null {
  const state = boot()
  const sent = state?.session
  if (!state || !sent) return null
  state.session = null
  return answerOfSent(sent)
}

/**
 * The first pull page (at `path`) and GET /api/user boot.js asked for as the
 * session check named `userId`, taken once; null when there are none, or they
 * are for someone else or another page (those are let go).
 */
export function takeBootFirstPage(
  userId: string,
  path: string,
): { answer: Promise<Answer>; identity: Promise<Answer>; abort: AbortController } | null {
  const state = boot()
  const sent = state?.firstPage
  if (!state || !sent) return null
  state.firstPage = null
  sent.taken = true
  if (sent.userId !== userId || sent.page.path !== path) {
    sent.page.abort.abort()
    return null
  }
  const answer = answerOfSent(sent.page)
  const identity = answerOfSent(sent.user)
  answer.catch(() => {})
  identity.catch(() => {})
  return { answer, identity, abort: sent.page.abort }
}
