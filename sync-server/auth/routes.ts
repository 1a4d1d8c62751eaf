import type { Context } from 'hono'
import { Hono } from 'hono'
import { z } from 'zod'
import { SIGNED_IN_PARAM, safeReturnPath } from '../../shared/sign-in.ts'
import {
  devLoginSchema,
  signedInSchema,
  type User,
  usernameSchema,
  userSchema,
} from '../../shared/user.ts'
import type { AppEnv } from '../http/env.ts'
import { ApiError, validationError } from '../http/errors.ts'
import { readForm } from '../http/form.ts'
import { body, query } from '../http/input.ts'
import { route } from '../http/route.ts'
import { findUserById, findUserByUsername } from '../users/queries.ts'
import { applyAdminUsernames } from './admin-usernames.ts'
import { type DevUser, devSignInPage } from './dev-page.ts'
import { microsoftSignIn } from './microsoft.ts'
import { createUser } from './provision.ts'
import { endSession, startSession } from './sessions.ts'

/** /api/auth: sign-in with Microsoft, the development sign-in, logout. */
export const authRoutes = new Hono<AppEnv>()

authRoutes.get(
  '/microsoft',
  route({
    tag: 'Sign-in',
    auth: false,
    errors: [429],
    summary: 'Sign in with Microsoft',
    description:
      'A browser navigates here. Without `code` it sends the browser to Microsoft Entra ID (302), remembering an optional `returnTo` path of this site; Microsoft sends it back here with `code` and `state`, and the server creates or refreshes the user, sets the session cookie and redirects to `returnTo` or `/`. A failed sign-in redirects to `/?sign_in_error=<reason>` (cancelled, not_allowed, state, token, profile, unavailable, failed) with no session. Without Entra credentials (development only) it redirects to the development sign-in page. Rate limited per client address (AUTH_RATE_LIMIT per minute).',
  }),
  query(
    z.object({
      returnTo: z.string().optional().describe('A path of this site to open after signing in'),
    }),
  ),
  microsoftSignIn,
)

/** The development sign-in does not exist in production. */
function requireDevelopment<E extends AppEnv>(c: Context<E>): void {
  if (c.get('deps').config.NODE_ENV === 'production') throw new ApiError(404, 'Not found')
}

/** GET /api/auth/dev-login: the development sign-in page. */
authRoutes.get(
  '/dev-login',
  route({
    tag: 'Sign-in',
    auth: false,
    errors: [404, 429],
    summary: 'Development sign-in page',
    response: {
      status: 200,
      schema: z.string(),
      mediaType: 'text/html',
      description: 'The sign-in page',
    },
    description:
      'An HTML page listing the users to sign in as, with a field for a new username; its forms POST to /auth/dev-login. Not available when NODE_ENV=production (404).',
  }),
  async (c) => {
    requireDevelopment(c)
    return c.html(
      devSignInPage({
        users: await listUsers(c),
        nonce: c.get('secureHeadersNonce'),
        returnTo: safeReturnPath(c.req.query('returnTo')),
      }),
    )
  },
)

/**
 * POST /api/auth/dev-login `{ userId }`: signs in as a user named by id or
 * username. In development an unknown username creates a non-admin user.
 * Answers the user for a JSON body; the page's form (url-encoded) is sent on
 * to `returnTo` or `/`, or gets the page again with the error.
 */
authRoutes.post(
  '/dev-login',
  route({
    tag: 'Sign-in',
    auth: false,
    errors: [404, 429],
    summary: 'Development sign-in',
    description:
      "Signs in as the user named by id or username and sets the session cookie. In development an unknown username creates a new non-admin user. A JSON body answers the user; the sign-in page's url-encoded form is redirected (303) to its `returnTo` or `/`. Not available when NODE_ENV=production (404).",
    response: { status: 200, schema: userSchema, description: 'The signed-in user' },
  }),
  body(devLoginSchema),
  async (c) => {
    requireDevelopment(c)
    const type = c.req.header('content-type') ?? ''
    if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) {
      const { userId } = await c.var.body()
      return c.json(await devSignIn(c, userId))
    }
    const form = await readForm(c)
    const userId = typeof form.userId === 'string' ? form.userId : ''
    const returnTo = safeReturnPath(typeof form.returnTo === 'string' ? form.returnTo : undefined)
    try {
      const input = devLoginSchema.safeParse({ userId })
      if (!input.success) throw validationError(input.error)
      await devSignIn(c, input.data.userId)
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error
      const page = devSignInPage({
        users: await listUsers(c),
        nonce: c.get('secureHeadersNonce'),
        returnTo,
        // The field's own message: the page has one field, so no "(userId)" suffix.
        error: error.errors?.[0] ? `${error.errors[0].message}.` : error.detail,
        username: userId,
      })
      return c.html(page, error.status)
    }
    // The app then says "Development Login Success" (spec section 9) and drops the mark.
    const back = new URL(returnTo ?? '/', 'http://app.invalid')
    back.searchParams.set(SIGNED_IN_PARAM, 'dev')
    return c.redirect(back.pathname + back.search + back.hash, 303)
  },
)

/** GET /api/auth/session: the signed-in user, or null; 200 either way. */
authRoutes.get(
  '/session',
  route({
    tag: 'Sign-in',
    auth: false,
    errors: [],
    summary: 'Who is signed in',
    description:
      'The signed-in user, or `user: null` when nobody is: 200 either way, so a signed-out visitor is not an error (GET /api/user answers 401 then).',
    response: { status: 200, schema: signedInSchema, description: 'The user, or null' },
  }),
  async (c) => {
    const session = c.get('user')
    const user = session ? ((await findUserById(c.get('db'), session.id)) ?? null) : null
    return c.json({ user })
  },
)

/**
 * GET /api/auth/logout: ends the session and goes to `/`. A navigation from
 * another site (Sec-Fetch-Site: cross-site) only redirects: a foreign page
 * cannot sign people out.
 */
authRoutes.get(
  '/logout',
  route({
    tag: 'Sign-in',
    auth: false,
    errors: [],
    summary: 'Sign out',
    description:
      'Ends the session, clears the cookie and redirects to / (302). A browser navigates here.',
  }),
  async (c) => {
    const site = c.req.header('sec-fetch-site')
    if (site === undefined || site === 'same-origin' || site === 'none') {
      await endSession(c, c.get('deps').sql)
    }
    return c.redirect('/', 302)
  },
)

async function devSignIn<E extends AppEnv>(c: Context<E>, userId: string): Promise<User> {
  const db = c.get('db')
  const isId = z.uuid().safeParse(userId).success
  let user = isId ? await findUserById(db, userId) : await findUserByUsername(db, userId)
  if (!user) {
    if (isId) throw new ApiError(404, 'User not found')
    const input = z.object({ userId: usernameSchema }).safeParse({ userId })
    if (!input.success) throw validationError(input.error)
    const username = input.data.userId
    user = await createUser(db, { username, fullName: username })
  }
  user = await applyAdminUsernames(db, user, c.get('deps').config.ADMIN_USERNAMES)
  await startSession(c, db, user.id)
  return user
}

/**
 * The users the page offers. Read on the request's own connection: a form post
 * runs in a transaction, and on embedded PGlite (one session for every
 * connection) a query on the pool would wait for that transaction forever.
 */
async function listUsers<E extends AppEnv>(c: Context<E>): Promise<DevUser[]> {
  return c.get('db')<DevUser[]>`
    SELECT username, full_name AS "fullName", is_admin AS "isAdmin" FROM users
    ORDER BY is_admin DESC, lower(full_name), lower(username) LIMIT 200`
}
