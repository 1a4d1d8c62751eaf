import { Hono } from 'hono'
import { periodQuerySchema } from '../../shared/insights-period.ts'
import { EXPORT_FILES } from '../../shared/insights-report.ts'
import { requireAdmin } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { validationError } from '../http/errors.ts'
import { exportResponse } from './exports.ts'
import { buildInsights } from './report.ts'

const ADMINS_ONLY = 'Only administrators can see programme insights and exports.'

/**
 * /api/admin/insights and /api/admin/export/{file}.csv: programme figures and
 * raw exports, for administrators only (401 signed out, 403 otherwise).
 */
export const insightsRoutes = new Hono<AppEnv>()

insightsRoutes.get('/insights', async (c) => {
  requireAdmin(c, ADMINS_ONLY)
  const query = periodQuerySchema.safeParse(c.req.query())
  if (!query.success) throw validationError(query.error)
  return c.json(await buildInsights(c.get('db'), query.data))
})

// One route per file, so the documented paths are exactly the routed ones.
for (const file of EXPORT_FILES) {
  insightsRoutes.get(`/export/${file}.csv`, (c) => {
    requireAdmin(c, ADMINS_ONLY)
    // The pool, not a request transaction: the cursor holds its own connection while it streams.
    return exportResponse(c.get('deps').sql, file)
  })
}
