import { Hono } from 'hono'
import { z } from 'zod'
import { periodQuerySchema } from '../../shared/insights-period.ts'
import { EXPORT_FILES, insightsSchema } from '../../shared/insights-report.ts'
import { requireAdmin } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { query } from '../http/input.ts'
import { route } from '../http/route.ts'
import { exportResponse } from './exports.ts'
import { FORMULAS, SUPPRESSION } from './formulas.ts'
import { buildInsights } from './report.ts'

const ADMINS_ONLY = 'Only administrators can see programme insights and exports.'

/** /api/admin/insights: programme figures, for administrators only (401 signed out, 403 otherwise). */
export const insightsRoutes = new Hono<AppEnv>()

/** /api/admin/export/{file}.csv: the raw exports, for administrators only. */
export const exportRoutes = new Hono<AppEnv>()

insightsRoutes.get(
  '/',
  route({
    tag: 'Administration',
    errors: [401, 403],
    summary: 'Programme insights',
    description: `Where the programme stands for a period, for administrators. ${SUPPRESSION}\n\n${FORMULAS.map((f) => `- ${f}`).join('\n')}`,
    response: { status: 200, schema: insightsSchema, description: 'The figures of the period' },
  }),
  query(periodQuerySchema),
  async (c) => {
    requireAdmin(c, ADMINS_ONLY)
    return c.json(await buildInsights(c.get('db'), c.var.query()))
  },
)

// One route per file, so the documented paths are exactly the routed ones.
for (const file of EXPORT_FILES) {
  exportRoutes.get(
    `/${file}.csv`,
    route({
      tag: 'Administration',
      errors: [401, 403],
      summary: `Export ${file} as CSV`,
      description: `Every row of ${file}, for administrators: RFC 4180 CSV with a header row, UTF-8 with a byte order mark, streamed. Cells starting with =, +, -, @, tab or carriage return are prefixed with a single quote (OWASP CSV injection). Columns: docs/insights.md.`,
      response: {
        status: 200,
        schema: z.string(),
        description: 'The CSV file',
        mediaType: 'text/csv',
      },
    }),
    (c) => {
      requireAdmin(c, ADMINS_ONLY)
      // The pool, not a request transaction: the cursor holds its own connection while it streams.
      return exportResponse(c.get('deps').sql, file)
    },
  )
}
