import { useEffect, useState } from 'react'
import type { Period } from '../../../../shared/insights-period.ts'
import { toastError } from '../../components/toast/store.ts'
import { useSyncEngine } from '../../sync/engine/react.ts'
import { fetchInsights, InsightsError, type SavedInsights, savedInsights } from './api.ts'

export type InsightsState = {
  data: SavedInsights | undefined
  loading: boolean
  /** The figures shown are the saved ones: the server could not be asked. */
  stale: boolean
}

/**
 * The insights of a period: the saved answer at once (offline too), then a
 * fresh one from the server. A refusal shows its detail in an "Error" toast;
 * no connection keeps the saved answer, marked stale ("as of <time>").
 */
export function useInsights(period: Period, reload: number): InsightsState {
  const { db } = useSyncEngine()
  const [state, setState] = useState<InsightsState>({
    data: undefined,
    loading: true,
    stale: false,
  })
  // biome-ignore lint/correctness/useExhaustiveDependencies: reload asks for the same period again
  useEffect(() => {
    let live = true
    setState({ data: undefined, loading: true, stale: false })
    void (async () => {
      const saved = await savedInsights(db, period)
      if (live && saved) setState({ data: saved, loading: true, stale: true })
      try {
        const fresh = await fetchInsights(db, period)
        if (live) setState({ data: fresh, loading: false, stale: false })
      } catch (error) {
        if (!live) return
        if (!(error instanceof InsightsError && error.offline) || !saved) {
          toastError(error instanceof Error ? error.message : String(error))
        }
        setState({ data: saved, loading: false, stale: saved !== undefined })
      }
    })()
    return () => {
      live = false
    }
  }, [db, period.from, period.to, reload])
  return state
}
