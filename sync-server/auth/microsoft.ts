import { msentraAuth } from '@hono/oauth-providers/msentra'
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { HTTPException } from 'hono/http-exception'
import { z } from 'zod'
import { SIGN_IN_ERROR_PARAM, type SignInError, safeReturnPath } from '../../shared/sign-in.ts'
import type { AppEnv } from '../http/env.ts'
import { applyAdminUsernames } from './admin-usernames.ts'
import { upsertMicrosoftUser } from './provision.ts'
import { createSession, setSessionCookie } from './sessions.ts'

/** openid/profile/email for the sign-in, User.Read for Graph's /me and the photo. */
const MICROSOFT_SCOPES = ['openid', 'profile', 'email', 'User.Read']
const GRAPH_PHOTO_URL = 'https://graph.microsoft.com/v1.0/me/photos/96x96/$value'
const PHOTO_MAX_BYTES = 24 * 1024

/** The cookie @hono/oauth-providers keeps the OAuth state in. */
const STATE_COOKIE = 'state'
const RETURN_COOKIE = 'pairwise_return_to'

const profileSchema = z.looseObject({
  id: z.string().min(1).max(64),
  userPrincipalName: z.string().max(1024).nullish(),
  displayName: z.string().max(1024).nullish(),
  givenName: z.string().max(1024).nullish(),
  surname: z.string().max(1024).nullish(),
  mail: z.string().max(1024).nullish(),
})

/**
 * GET /api/auth/microsoft: both ends of the OAuth 2.0 code flow with
 * Microsoft Entra ID. Without `code` it remembers `returnTo` and sends the
 * browser to Microsoft; Microsoft sends it back here with `code` and `state`
 * (or `error`). @hono/oauth-providers checks the state against its cookie,
 * exchanges the code and reads Graph's /me. Then the user is created or
 * refreshed and a session starts, in one transaction. Every failure ends on
 * the sign-in screen with `?sign_in_error=<code>` and no session.
 *
 * Without Entra credentials (development only: production refuses to start
 * without them) the same button leads to the development sign-in page.
 */
export async function microsoftSignIn(c: Context<AppEnv>): Promise<Response> {
  const { config, sql } = c.get('deps')
  const entra = config.entra
  const returnTo = safeReturnPath(c.req.query('returnTo'))
  if (!entra) {
    const query = returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ''
    return c.redirect(`/api/auth/dev-login${query}`, 302)
  }

  const providerError = c.req.query('error')
  if (providerError !== undefined) {
    return failed(c, providerErrorCode(providerError, c.req.query('error_description') ?? ''))
  }
  const starting = c.req.query('code') === undefined
  if (starting) {
    if (returnTo) setCookie(c, RETURN_COOKIE, returnTo, cookieOptions(c, 600))
    else deleteCookie(c, RETURN_COOKIE, cookieOptions(c))
  }

  const flow = msentraAuth({
    client_id: entra.clientId,
    client_secret: entra.clientSecret,
    tenant_id: entra.tenantId,
    scope: MICROSOFT_SCOPES,
    redirect_uri: `${config.PUBLIC_URL ?? new URL(c.req.url).origin}/api/auth/microsoft`,
  })
  let reached = false
  let answer: Response | undefined
  try {
    answer = (await flow(c, async () => {
      reached = true
    })) as Response | undefined
  } catch (error) {
    return failed(c, flowErrorCode(error), error)
  }
  // No code yet: the library answered with the redirect to Microsoft.
  if (!reached) return answer ?? failed(c, 'failed', new Error('The OAuth flow gave no answer'))

  const profile = profileSchema.safeParse(c.get('user-msentra'))
  const accessToken = c.get('token')?.token
  if (!profile.success || !accessToken) {
    return failed(c, 'profile', new Error('Graph /me gave no usable profile'))
  }
  const photo = await readPhoto(accessToken)
  let sessionId: string
  try {
    sessionId = await sql.begin(async (tx) => {
      const user = await upsertMicrosoftUser(tx, profile.data, photo)
      await applyAdminUsernames(tx, user, config.ADMIN_USERNAMES)
      return createSession(tx, config, user.id, c.req.header('user-agent'))
    })
  } catch (error) {
    return failed(c, 'failed', error)
  }
  // Only once the user and the session are committed does the browser get the cookie.
  await setSessionCookie(c, sql, sessionId)
  const destination = safeReturnPath(getCookie(c, RETURN_COOKIE)) ?? '/'
  clearFlowCookies(c)
  return c.redirect(destination, 302)
}

/** Ends a sign-in that did not work on the sign-in screen, with no session. */
function failed(c: Context<AppEnv>, code: SignInError, error?: unknown): Response {
  if (error !== undefined) {
    console.warn(`Microsoft sign-in failed (${code}):`, describe(error))
  }
  clearFlowCookies(c)
  return c.redirect(`/?${SIGN_IN_ERROR_PARAM}=${code}`, 302)
}

function clearFlowCookies(c: Context<AppEnv>): void {
  deleteCookie(c, STATE_COOKIE, { path: '/', secure: true })
  deleteCookie(c, RETURN_COOKIE, cookieOptions(c))
}

function cookieOptions(c: Context<AppEnv>, maxAge?: number) {
  return {
    path: '/api/auth',
    httpOnly: true,
    sameSite: 'Lax' as const,
    secure: c.get('deps').config.NODE_ENV === 'production',
    ...(maxAge ? { maxAge } : {}),
  }
}

/**
 * Microsoft's `error` on the redirect back: `access_denied` is a person
 * declining, unless the description says the account is not assigned to the
 * application (AADSTS50105) or blocked by policy (AADSTS53003).
 */
export function providerErrorCode(error: string, description: string): SignInError {
  if (/AADSTS(50105|53003|530003|50020)/.test(description)) return 'not_allowed'
  if (error === 'access_denied' || error === 'consent_required' || error === 'login_required') {
    return 'cancelled'
  }
  if (error === 'temporarily_unavailable' || error === 'server_error') return 'unavailable'
  return 'failed'
}

/**
 * What went wrong inside @hono/oauth-providers: it throws HTTPException 401
 * for a state that does not match its cookie, HTTPException 400 whose message
 * is the token endpoint's error code (a string) or Graph's error (an object,
 * so "[object Object]"), and lets fetch's TypeError (network) and JSON's
 * SyntaxError (an HTML outage page) through.
 */
export function flowErrorCode(error: unknown): SignInError {
  if (error instanceof HTTPException) {
    if (error.status === 401) return 'state'
    return error.message === '[object Object]' ? 'profile' : 'token'
  }
  if (error instanceof TypeError || error instanceof SyntaxError) return 'unavailable'
  return 'failed'
}

/**
 * The profile photo as a data URL (small enough to travel with the user to
 * every device and work offline), null when the account has none, undefined
 * when it could not be read (the stored photo then stays).
 */
async function readPhoto(accessToken: string): Promise<string | null | undefined> {
  try {
    const res = await fetch(GRAPH_PHOTO_URL, {
      headers: { authorization: `Bearer ${accessToken}` },
      signal: AbortSignal.timeout(5000),
    })
    if (res.status === 404) return null
    const type = res.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? ''
    if (!res.ok || !/^image\/(jpeg|png|gif|webp)$/.test(type)) return undefined
    const bytes = Buffer.from(await res.arrayBuffer())
    if (bytes.length === 0 || bytes.length > PHOTO_MAX_BYTES) return undefined
    return `data:${type};base64,${bytes.toString('base64')}`
  } catch {
    return undefined
  }
}

function describe(error: unknown): string {
  if (error instanceof HTTPException) return `HTTP ${error.status} ${error.message}`
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}
