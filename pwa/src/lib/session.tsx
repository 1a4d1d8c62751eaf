import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react'
import type { User } from '../../../shared/user.ts'
import { SyncEngine } from '../sync/engine/engine.ts'
import { askFirstPageEarly } from '../sync/engine/first-page-early.ts'
import { takeBootSession } from './boot-answers.ts'
import { BROWSER_HTTP, request } from './http.ts'
import { forgetStoredSnapshots } from './snapshot.ts'

/**
 * Who is signed in. The server's answer to GET /api/auth/session decides; the
 * last answer kept on this device stands in until it comes (a return visit
 * paints from IndexedDB before any network answer) and while the network is
 * down, so the app opens offline with its data. `user: null` means signed
 * out (spec section 8).
 */
export type Session =
  | { state: 'loading' }
  | { state: 'signed-out' }
  | { state: 'unavailable'; message: string; retry: () => void }
  | { state: 'signed-in'; user: User; engine: SyncEngine; verified: boolean }

const STORED_USER_KEY = 'pairwise.user'
/** How long the screens wait for the local database to open before they show anyway. */
const OPEN_WAIT_MS = 1_000

const SessionContext = createContext<Session>({ state: 'loading' })

export function useSession(): Session {
  return useContext(SessionContext)
}

/** The signed-in session; only for screens rendered inside the signed-in app. */
export function useSignedIn(): Extract<Session, { state: 'signed-in' }> {
  const session = useSession()
  if (session.state !== 'signed-in') throw new Error('useSignedIn needs a signed-in session')
  return session
}

type Check =
  | { kind: 'user'; user: User }
  /** The last answer kept on this device, while the server's is on its way. */
  | { kind: 'stored'; user: User }
  | { kind: 'signed-out' }
  | { kind: 'failed'; message: string }

async function checkSession(): Promise<Check> {
  try {
    // Not GET /api/user: its 401 for a signed-out visitor is a console error in every browser.
    // The first check is the one boot.js sent before the modules loaded (boot-answers.ts).
    const answer = await (takeBootSession() ??
      request(BROWSER_HTTP, 'GET', '/api/auth/session', undefined))
    if (answer.status >= 400) {
      return { kind: 'failed', message: `${answer.status} ${answer.statusText ?? ''}`.trim() }
    }
    const { user } = answer.body as { user: User | null }
    return user ? { kind: 'user', user } : { kind: 'signed-out' }
  } catch {
    return { kind: 'failed', message: 'The server cannot be reached.' }
  }
}

let settle: () => void = () => {}
/**
 * Resolves once this page's start is over: the first sync has ended (the
 * database holds a sync time), or nobody is signed in, or the session check
 * failed. A first visit installs the service worker only then (main.tsx,
 * register-sw.ts): its precache of the app's files (some sixty requests
 * written to the Cache Storage) took the same two cores as a new device's
 * first sync and made it about a sixth slower (issue 14).
 */
export const startSettled: Promise<void> = new Promise((resolve) => {
  settle = resolve
})

/** The person last signed in on this device, as the server last said. */
export function storedUser(): User | null {
  try {
    const raw = localStorage.getItem(STORED_USER_KEY)
    return raw ? (JSON.parse(raw) as User) : null
  } catch {
    return null
  }
}

/** Signed out: nothing of the last person's is kept to start with (their screens' copies too). */
export function forgetStoredUser(): void {
  localStorage.removeItem(STORED_USER_KEY)
  forgetStoredSnapshots()
}

export function SessionProvider(props: {
  children: ReactNode
  /** The server answered who is signed in (before the screens render: for preloading). */
  onUser?: (user: User) => void
}) {
  const [attempt, setAttempt] = useState(0)
  // A return visit opens at once as the person last seen here, from this device's data;
  // the server's answer then confirms it, or signs out, or switches to who it says.
  const [check, setCheck] = useState<Check | 'loading'>(() => {
    const stored = storedUser()
    return stored ? { kind: 'stored', user: stored } : 'loading'
  })
  const [engine, setEngine] = useState<SyncEngine | null>(null)

  // biome-ignore lint/correctness/useExhaustiveDependencies: each retry (attempt) checks again
  useEffect(() => {
    let cancelled = false
    void checkSession().then((result) => {
      if (cancelled) return
      if (result.kind === 'user') {
        // Someone new to this device (or someone else signed in): the last person's screen
        // copies go, and this person's first pull page is asked for now, before the screens
        // and the sync engine are made (first-page-early.ts).
        if (storedUser()?.id !== result.user.id) {
          askFirstPageEarly(result.user.id)
          forgetStoredSnapshots()
        }
        localStorage.setItem(STORED_USER_KEY, JSON.stringify(result.user))
        props.onUser?.(result.user)
      }
      if (result.kind === 'signed-out') forgetStoredUser()
      if (result.kind !== 'user') settle()
      setCheck(result)
    })
    return () => {
      cancelled = true
    }
  }, [attempt])

  const user =
    check === 'loading'
      ? null
      : check.kind === 'user' || check.kind === 'stored'
        ? check.user
        : check.kind === 'failed'
          ? storedUser()
          : null
  const userId = user?.id ?? null
  const isAdmin = user?.isAdmin ?? false
  const username = user?.username ?? ''
  const verified = check !== 'loading' && check.kind === 'user'

  const verifiedRef = useRef(verified)
  verifiedRef.current = verified

  // One engine per signed-in user, for as long as they are signed in. The
  // screens come once its database is open, or after OPEN_WAIT_MS: rendering
  // them meanwhile would keep the page busy while IndexedDB waits for it to
  // take the open (or create the database), and a page that goes into
  // WebKit's back/forward cache in that moment blocks the database for
  // every later page (decision 0024).
  useEffect(() => {
    if (!userId) return
    const next = new SyncEngine({ user: { id: userId, username, isAdmin } })
    let shown = false
    const show = () => {
      if (shown) return
      shown = true
      clearTimeout(timer)
      setEngine(next)
    }
    const timer = setTimeout(show, OPEN_WAIT_MS)
    void next.opened.then(show)
    const synced = () => {
      if (next.status.get().lastSyncedAt !== null) settle()
    }
    const unfollow = next.status.subscribe(synced)
    synced()
    void next
      .start()
      .then(() => {
        // Signed in again after the session had ended: the waiting queue goes out.
        if (verifiedRef.current && next.status.get().needsSignIn) return next.signedIn()
      })
      .catch(() => {})
    return () => {
      shown = true
      clearTimeout(timer)
      unfollow()
      setEngine(null)
      void next.stop()
    }
  }, [userId, username, isAdmin])

  // Opened from the stored answer and confirmed since: a queue held for "sign in again" goes out.
  useEffect(() => {
    if (verified && engine?.status.get().needsSignIn) void engine.signedIn().catch(() => {})
  }, [verified, engine])

  let session: Session
  if (check === 'loading') session = { state: 'loading' }
  else if (user && engine && engine.userId === user.id)
    session = { state: 'signed-in', user, engine, verified }
  else if (user) session = { state: 'loading' }
  else if (check.kind === 'failed')
    session = {
      state: 'unavailable',
      message: check.message,
      retry: () => {
        setCheck('loading')
        setAttempt((n) => n + 1)
      },
    }
  else session = { state: 'signed-out' }

  return <SessionContext.Provider value={session}>{props.children}</SessionContext.Provider>
}
