import { afterEach, describe, expect, it } from 'vitest'
import { takeBootFirstPage, takeBootSession } from './boot-answers.ts'
import { NoAnswer } from './http.ts'

// What public/boot.js leaves on the page, in its format: each request's answer as
// { status, statusText, text }, or a failure named 'timeout', 'aborted' or 'network'.
type Raw = { status: number; statusText: string; text: string }

function sent(path: string, answer: Promise<Raw>, abort = new AbortController()) {
  answer.catch(() => {})
  return { path, answer, abort }
}

function ok(body: unknown): Promise<Raw> {
  return Promise.resolve({ status: 200, statusText: 'OK', text: JSON.stringify(body) })
}

function setBoot(boot: unknown): void {
  ;(globalThis as { __pairwiseBoot?: unknown }).__pairwiseBoot = boot
}

afterEach(() => {
  setBoot(undefined)
})

describe('the session check boot.js sent', () => {
  it('is answered as the HTTP client answers, and taken once', async () => {
    setBoot({ session: sent('/api/auth/session', ok({ user: { id: 'u1' } })), firstPage: null })
    const first = takeBootSession()
    expect(await first).toEqual({ status: 200, statusText: 'OK', body: { user: { id: 'u1' } } })
    expect(takeBootSession()).toBeNull()
  })

  it('keeps a body that is not JSON as text, and an empty one as null', async () => {
    setBoot({
      session: sent(
        '/api/auth/session',
        Promise.resolve({ status: 502, statusText: 'Bad Gateway', text: 'upstream down' }),
      ),
      firstPage: null,
    })
    expect(await takeBootSession()).toEqual({
      status: 502,
      statusText: 'Bad Gateway',
      body: 'upstream down',
    })
    setBoot({
      session: sent(
        '/api/auth/session',
        Promise.resolve({ status: 204, statusText: '', text: '' }),
      ),
      firstPage: null,
    })
    expect((await takeBootSession())?.body).toBeNull()
  })

  it.each([
    ['timeout', 'GET /api/auth/session got no answer in time.'],
    ['aborted', 'GET /api/auth/session was given up.'],
    ['network', 'GET /api/auth/session failed: no answer.'],
  ] as const)('fails with NoAnswer (%s) when boot.js got no answer', async (reason, message) => {
    setBoot({ session: sent('/api/auth/session', Promise.reject(reason)), firstPage: null })
    const error = await takeBootSession()?.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NoAnswer)
    expect(error).toMatchObject({ reason, message })
  })

  it('is not there without boot.js', () => {
    expect(takeBootSession()).toBeNull()
    expect(takeBootFirstPage('u1', '/api/sync/pull')).toBeNull()
  })
})

describe('the first page boot.js asked for', () => {
  function firstPage(userId: string) {
    const abort = new AbortController()
    return {
      abort,
      state: {
        userId,
        page: sent('/api/sync/pull', ok({ changes: {} }), abort),
        user: sent('/api/user', ok({ id: userId }), abort),
        taken: false,
      },
    }
  }

  it("is taken once, for the person it was asked for, with its page and GET /api/user's answers", async () => {
    const { abort, state } = firstPage('u1')
    setBoot({ session: null, firstPage: state })
    const taken = takeBootFirstPage('u1', '/api/sync/pull')
    expect(taken?.abort).toBe(abort)
    expect(state.taken).toBe(true)
    expect((await taken?.answer)?.body).toEqual({ changes: {} })
    expect((await taken?.identity)?.body).toEqual({ id: 'u1' })
    expect(abort.signal.aborted).toBe(false)
    expect(takeBootFirstPage('u1', '/api/sync/pull')).toBeNull()
  })

  it('is let go when it is for someone else or another page', () => {
    const other = firstPage('u1')
    setBoot({ session: null, firstPage: other.state })
    expect(takeBootFirstPage('u2', '/api/sync/pull')).toBeNull()
    expect(other.abort.signal.aborted).toBe(true)
    expect(other.state.taken).toBe(true)

    const smaller = firstPage('u1')
    setBoot({ session: null, firstPage: smaller.state })
    expect(takeBootFirstPage('u1', '/api/sync/pull?limit=100')).toBeNull()
    expect(smaller.abort.signal.aborted).toBe(true)
  })
})
