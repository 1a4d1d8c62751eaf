import { useEffect, useMemo, useState } from 'react'
import {
  candidatesFor,
  countInterests,
  firstPlaces,
  inDemand,
  type Recommendation,
  recommend,
} from '../../../../shared/matching.ts'
import { DEFAULT_MATCH_WEIGHTS } from '../../../../shared/programme-settings.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import type { SyncTopic } from '../../sync/engine/db.ts'
import type { Merged } from '../../sync/engine/overlay.ts'
import { useSyncEngine, useSyncedCoalesced, useSyncStatus } from '../../sync/engine/react.ts'
import { readMatching } from '../../sync/engine/view.ts'

const MATCHING_TABLES = [
  'topics',
  'users',
  'applications',
  'dismissals',
  'settings',
  'overlay',
  'rejected',
]

type MatchingData = Awaited<ReturnType<typeof readMatching>>
/** The last read per database and user: a return visit paints at once. */
const lastRead = new Map<string, MatchingData>()

/** How often at most matching reads again while writes keep coming: it weighs everyone. */
const MATCHING_EVERY_MS = 2_000

/**
 * Whether matching may start reading: once the first sync has ended (before,
 * every page it writes would mean reading and weighing everyone again, and
 * the sync itself would wait for that), and once the browser has had an idle
 * moment after the screen mounted, so the list paints first.
 */
function useMatchingMayStart(): boolean {
  const { lastSyncedAt } = useSyncStatus()
  const [idle, setIdle] = useState(false)
  useEffect(() => {
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(() => setIdle(true), { timeout: 1_000 })
      return () => cancelIdleCallback(handle)
    }
    const timer = setTimeout(() => setIdle(true), 200)
    return () => clearTimeout(timer)
  }, [])
  return idle && lastSyncedAt !== null
}

/** What matching reads from this device's database, live (coalesced while a sync writes). */
export function useMatchingData(): MatchingData | undefined {
  const me = useCurrentUser()
  const engine = useSyncEngine()
  const key = `${engine.db.name}:${me.id}`
  const mayStart = useMatchingMayStart()
  return useSyncedCoalesced(
    async (db) => {
      if (!mayStart) return lastRead.get(key)
      const data = await readMatching(db, me.id)
      lastRead.set(key, data)
      return data
    },
    MATCHING_TABLES,
    [me.id, key, mayStart],
    // Beside the screen's own content: read again once the page is idle.
    { initial: lastRead.get(key), every: MATCHING_EVERY_MS, background: true },
  )
}

export type RecommendationsState =
  | { kind: 'loading' }
  /** The profile has no interests: ask for some, with the ones topics use most. */
  | { kind: 'no-interests'; popular: string[] }
  /** Nothing fits. */
  | { kind: 'none' }
  /** What fits is wanted by more people than it has places: shown apart, not as recommendations. */
  | { kind: 'in-demand'; items: Recommendation<Merged<SyncTopic>>[] }
  | { kind: 'ready'; items: Recommendation<Merged<SyncTopic>>[] }

/** "Recommended for you", computed on this device (shared/matching.ts), offline too. */
export function useRecommendations(limit: number): RecommendationsState {
  const me = useCurrentUser()
  const data = useMatchingData()
  return useMemo((): RecommendationsState => {
    if (!data) return { kind: 'loading' }
    if (me.interests.length === 0) {
      const popular = countInterests(
        data.topics.filter((t) => t.mentorId !== me.id).map((t) => t.interests),
      )
      return { kind: 'no-interests', popular: popular.slice(0, 10).map((u) => u.name) }
    }
    const weights = data.settings?.matchWeights ?? DEFAULT_MATCH_WEIGHTS
    // User timings: bench:client reads them (the first places are computed once per data change).
    const t0 = performance.now()
    firstPlaces(data.topics, data.people, weights)
    const t1 = performance.now()
    const input = {
      me,
      topics: data.topics,
      people: data.people,
      applied: data.applied,
      dismissed: data.dismissed,
      weights,
      limit,
    }
    const items = recommend(input)
    performance.measure('pairwise:first-places', { start: t0, end: t1 })
    performance.measure('pairwise:recommend', { start: t1 })
    if (items.length > 0) return { kind: 'ready', items }
    const crowded = inDemand(input)
    return crowded.length > 0 ? { kind: 'in-demand', items: crowded } : { kind: 'none' }
  }, [data, me, limit])
}

/** "People who might fit" a topic, for its mentor. */
export function useCandidates(
  topic: Merged<SyncTopic> | undefined,
  applied: ReadonlySet<string>,
  limit: number,
) {
  const data = useMatchingData()
  return useMemo(() => {
    if (!data || !topic) return undefined
    return candidatesFor({
      topic,
      people: data.people,
      applied,
      weights: data.settings?.matchWeights ?? DEFAULT_MATCH_WEIGHTS,
      limit,
    })
  }, [data, topic, applied, limit])
}
