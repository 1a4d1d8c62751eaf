import type { Context } from 'hono'
import { Hono } from 'hono'
import { z } from 'zod'
import { safeReturnPath } from '../../shared/sign-in.ts'
import { devLoginSchema, type User, usernameSchema } from '../../shared/user.ts'
import type { AppEnv } from '../http/env.ts'
import { ApiError, validationError } from '../http/errors.ts'
import { readForm } from '../http/form.ts'
import { readBody } from '../http/validate.ts'
import { findUserById, findUserByUsername } from '../users/queries.ts'
import { applyAdminUsernames } from './admin-usernames.ts'
import { type DevUser, devSignInPage } from './dev-page.ts'
import { microsoftSignIn } from './microsoft.ts'
import { createUser } from './provision.ts'
import { endSession, startSession } from './sessions.ts'

/** /api/auth: sign-in with Microsoft, the development sign-in, logout. */
export const authRoutes = new Hono<AppEnv>()

authRoutes.get('/microsoft', microsoftSignIn)

/** The development sign-in does not exist in production. */
function requireDevelopment(c: Context<AppEnv>): void {
  if (c.get('deps').config.NODE_ENV === 'production') throw new ApiError(404, 'Not found')
}

/** GET /api/auth/dev-login: the development sign-in page. */
authRoutes.get('/dev-login', async (c) => {
  requireDevelopment(c)
  return c.html(
    devSignInPage({
      users: await listUsers(c),
      nonce: c.get('secureHeadersNonce'),
      returnTo: safeReturnPath(c.req.query('returnTo')),
    }),
  )
})

/**
 * POST /api/auth/dev-login `{ userId }`: signs in as a user named by id or
 * username. In development an unknown username creates a non-admin user.
 * Answers the user for a JSON body; the page's form (url-encoded) is sent on
 * to `returnTo` or `/`, or gets the page again with the error.
 */
authRoutes.post('/dev-login', async (c) => {
  requireDevelopment(c)
  const type = c.req.header('content-type') ?? ''
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) {
    const { userId } = await readBody(c, devLoginSchema)
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
  return c.redirect(returnTo ?? '/', 303)
})

/**
 * GET /api/auth/logout: ends the session and goes to `/`. A navigation from
 * another site (Sec-Fetch-Site: cross-site) only redirects: a foreign page
 * cannot sign people out.
 */
authRoutes.get('/logout', async (c) => {
  const site = c.req.header('sec-fetch-site')
  if (site === undefined || site === 'same-origin' || site === 'none') {
    await endSession(c, c.get('deps').sql)
  }
  return c.redirect('/', 302)
})

async function devSignIn(c: Context<AppEnv>, userId: string): Promise<User> {
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
async function listUsers(c: Context<AppEnv>): Promise<DevUser[]> {
  return c.get('db')<DevUser[]>`
    SELECT username, full_name AS "fullName", is_admin AS "isAdmin" FROM users
    ORDER BY is_admin DESC, lower(full_name), lower(username) LIMIT 200`
}
