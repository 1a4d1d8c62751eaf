import { SIGN_IN_PATH } from '../../../../shared/sign-in.ts'

/** Sign in with Microsoft again, coming back to this page. */
export function signInAgainHref(): string {
  const here = window.location.pathname + window.location.search
  return here === '/' ? SIGN_IN_PATH : `${SIGN_IN_PATH}?returnTo=${encodeURIComponent(here)}`
}
