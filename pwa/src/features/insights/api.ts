import type { Period } from '../../../../shared/insights-period.ts'
import { type Insights, insightsSchema } from '../../../../shared/insights-report.ts'
import { type Answer, BROWSER_HTTP, detailOf, request } from '../../lib/http.ts'
import { getMeta, type SyncDb, setMeta } from '../../sync/engine/db.ts'

/** The last answer for a period, kept on the device so the screen reads offline. */
export type SavedInsights = { report: Insights; savedAt: number }

/** Why a fetch failed: `offline` when no answer came at all (show the saved one quietly). */
export class InsightsError extends Error {
  constructor(
    message: string,
    readonly offline: boolean,
  ) {
    super(message)
  }
}

const metaKey = (period: Period) => `insights:${period.from}:${period.to}`

/**
 * GET /api/admin/insights for a period. Insights are read-only figures only
 * administrators may see, computed on the server from every row: they are not
 * synced, so this goes straight to the network, and the answer is kept in the
 * user's own database (meta table) for reading offline.
 */
export async function fetchInsights(db: SyncDb, period: Period): Promise<SavedInsights> {
  let answer: Answer
  try {
    answer = await request(
      BROWSER_HTTP,
      'GET',
      `/api/admin/insights?from=${period.from}&to=${period.to}`,
      undefined,
    )
  } catch {
    throw new InsightsError(
      'The server cannot be reached. Check your connection and try again.',
      true,
    )
  }
  if (answer.status >= 400) throw new InsightsError(detailOf(answer), false)
  const saved = { report: insightsSchema.parse(answer.body), savedAt: Date.now() }
  await setMeta(db, metaKey(period), saved)
  return saved
}

/** The answer last kept for a period, if any. */
export async function savedInsights(
  db: SyncDb,
  period: Period,
): Promise<SavedInsights | undefined> {
  const saved = await getMeta<SavedInsights>(db, metaKey(period))
  return saved && insightsSchema.safeParse(saved.report).success ? saved : undefined
}
