/**
 * Why a sign-in did not finish. The server ends a failed sign-in on the
 * sign-in screen with `?sign_in_error=<code>`; the screen shows the message.
 */
export const SIGN_IN_ERRORS = {
  cancelled: 'Sign-in was cancelled. You can try again whenever you are ready.',
  not_allowed:
    'Your Microsoft account is not allowed to use Pairwise. Ask your administrator for access.',
  state: 'This sign-in attempt expired or was started in another window. Please sign in again.',
  token: 'Microsoft could not confirm your sign-in. Please try again.',
  profile:
    'You signed in, but Microsoft did not return your profile. Please try again in a moment.',
  unavailable: 'Microsoft sign-in cannot be reached right now. Please try again in a few minutes.',
  rate_limited: 'Too many sign-in attempts from your network. Wait a minute and try again.',
  failed: 'Sign-in did not work. Please try again.',
} as const

export type SignInError = keyof typeof SIGN_IN_ERRORS

export const SIGN_IN_ERROR_PARAM = 'sign_in_error'

/**
 * Set (to `dev`) on the address the development sign-in sends the browser
 * back to: the app says "Development Login Success" once and drops it.
 */
export const SIGNED_IN_PARAM = 'signed_in'

/** The path the sign-in button opens; it goes on to Microsoft (or the development sign-in). */
export const SIGN_IN_PATH = '/api/auth/microsoft'

/** The message for a `sign_in_error` value, or undefined for none or an unknown code. */
export function signInErrorMessage(code: string | null | undefined): string | undefined {
  if (!code || !Object.hasOwn(SIGN_IN_ERRORS, code)) return undefined
  return SIGN_IN_ERRORS[code as SignInError]
}

/**
 * Where to go after signing in: a path on this site, or undefined. Refuses
 * anything a browser could read as another site (`//host`, `/\host`, schemes,
 * control characters) so the return address cannot become an open redirect.
 */
export function safeReturnPath(value: string | null | undefined): string | undefined {
  if (!value || value.length > 1024) return undefined
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return undefined
  if (value.startsWith('/api/')) return undefined
  return value
}
