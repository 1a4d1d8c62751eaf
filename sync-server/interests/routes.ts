import { Hono } from 'hono'
import { interestsResponseSchema } from '../../shared/interests.ts'
import { requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { route } from '../http/route.ts'

/** /api/interests: the known interests the pickers offer, alphabetically. */
export const interestRoutes = new Hono<AppEnv>()

interestRoutes.get(
  '/',
  route({
    tag: 'Users',
    errors: [401],
    summary: 'Known interests',
    description:
      'The interests offered to pickers, alphabetically; free-text additions join the list when saved.',
    response: { status: 200, schema: interestsResponseSchema, description: 'Interest names' },
  }),
  async (c) => {
    requireUser(c)
    const rows = await c.get('db')<
      { name: string }[]
    >`SELECT name FROM interests ORDER BY lower(name)`
    return c.json(rows.map((r) => r.name))
  },
)
