// The page shown until the PWA screens land: the sign-in screen when signed
// out (with the reason a sign-in failed), and who is signed in otherwise.
import { SIGN_IN_ERROR_PARAM, SIGN_IN_PATH, signInErrorMessage } from '../../shared/sign-in.ts'

function element(id: string): HTMLElement {
  const found = document.getElementById(id)
  if (!found) throw new Error(`#${id} is missing`)
  return found
}

function show(id: string, text: string): void {
  element(id).textContent = text
}

function showSignInError(): void {
  const url = new URL(window.location.href)
  const message = signInErrorMessage(url.searchParams.get(SIGN_IN_ERROR_PARAM))
  if (!message) return
  show('error', message)
  element('error').hidden = false
  // The message shows once; a reload does not bring it back.
  url.searchParams.delete(SIGN_IN_ERROR_PARAM)
  window.history.replaceState(null, '', url.pathname + url.search + url.hash)
}

async function check(): Promise<void> {
  try {
    const health = await fetch('/healthz')
    show('health', health.ok ? 'Running, database reachable' : `Not healthy (${health.status})`)
  } catch {
    show('health', 'Not reachable')
  }
  try {
    const res = await fetch('/api/user', { headers: { accept: 'application/json' } })
    if (res.status === 401) {
      show('heading', 'Welcome')
      show('user', 'Nobody')
      const returnTo = window.location.pathname + window.location.search
      const signIn = element('sign-in') as HTMLAnchorElement
      signIn.href =
        returnTo === '/' ? SIGN_IN_PATH : `${SIGN_IN_PATH}?returnTo=${encodeURIComponent(returnTo)}`
      element('signed-out').hidden = false
      return
    }
    const user = (await res.json()) as { username: string; full_name: string; isAdmin: boolean }
    show('user', `${user.full_name} (@${user.username})${user.isAdmin ? ', administrator' : ''}`)
    element('signed-in').hidden = false
  } catch {
    show('user', 'Unknown')
  }
}

showSignInError()
void check()
