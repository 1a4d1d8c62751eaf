import { Hono } from 'hono'
import { requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'

/** /api/interests: the known interests the pickers offer, alphabetically. */
export const interestRoutes = new Hono<AppEnv>()

interestRoutes.get('/interests', async (c) => {
  requireUser(c)
  const rows = await c.get('db')<
    { name: string }[]
  >`SELECT name FROM interests ORDER BY lower(name)`
  return c.json(rows.map((r) => r.name))
})
