import type { Context } from 'hono'
import type { Actor } from '../../shared/decision.ts'
import { checkAdminister } from '../../shared/user.ts'
import type { AppEnv, SessionUser } from './env.ts'
import { ApiError } from './errors.ts'
import { enforce } from './validate.ts'

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
