import type { Context } from 'hono'
import type { Actor } from '../../shared/decision.ts'
import { checkAdminister } from '../../shared/user.ts'
import type { AppEnv, SessionUser } from './env.ts'
import { ApiError } from './errors.ts'
import { enforce, parseId } from './validate.ts'

/** The signed-in user, or a 401 the PWA reads as "not signed in". */
export function requireUser<E extends AppEnv>(c: Context<E>): SessionUser {
  const user = c.get('user')
  if (!user) throw new ApiError(401, 'You are not signed in. Sign in to continue.')
  return user
}

export function actorOf(user: SessionUser): Actor {
  return { id: user.id, isAdmin: user.isAdmin }
}

export function requireAdmin<E extends AppEnv>(
  c: Context<E>,
  refusal = 'Only administrators can do this.',
): SessionUser {
  const user = requireUser(c)
  enforce(checkAdminister(actorOf(user), refusal))
  return user
}

/**
 * The signed-in caller of a request on one resource named by the path's `:id`:
 * the user, as an actor for the shared rules, the request's database, and the
 * id (404 with `notFound` when it cannot name anything).
 */
export function callerOn<E extends AppEnv>(c: Context<E>, notFound: string) {
  const user = requireUser(c)
  return { user, actor: actorOf(user), db: c.get('db'), id: parseId(c.req.param('id'), notFound) }
}
