import { FunnelIcon, PlusIcon, RectangleStackIcon } from '@heroicons/react/20/solid'
import {
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react'
import { useSearchParams } from 'react-router-dom'
import { canViewTopic, matchesTopicFilters } from '../../../../shared/topic.ts'
import { Recommended } from '../../components/matching/recommended.tsx'
import { usePendingLimit } from '../../components/topic/apply-rule.ts'
import { LinkButton } from '../../components/ui/button.tsx'
import { EmptyState, PageHeader } from '../../components/ui/page.tsx'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { VirtualGrid } from '../../components/ui/virtual-grid.tsx'
import { groupThousands } from '../../lib/group-thousands.ts'
import { paths } from '../../lib/paths.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import type { SyncApplication, SyncDb, SyncTopic } from '../../sync/engine/db.ts'
import type { Merged } from '../../sync/engine/overlay.ts'
import {
  useEarlyPage,
  useSyncEngine,
  useSynced,
  useSyncedCoalesced,
  useSyncStatus,
} from '../../sync/engine/react.ts'
import {
  readApplicationsOfMentee,
  readEarlyPage,
  readNewestTopics,
  readTable,
} from '../../sync/engine/view.ts'
import { TopicCard } from './topic-card.tsx'
import {
  filtersFromParams,
  TopicFilters,
  type TopicFilterValues,
  toQuery,
} from './topic-filters.tsx'
import { type TopicHit, topicSearchIndex } from './topic-search.ts'

/**
 * /topics (spec section 2): every topic the user may see — the public ones
 * and their own proposed or rejected ones — as a filterable, searchable grid
 * of cards. At company scale (10,000 topics) only the rows near the viewport
 * are rendered (VirtualGrid), the topics are read again at most a few times
 * a second while a sync writes pages, and search runs on an index kept in
 * memory (topic-search.ts). Filters and the search words live in the URL, so
 * Back and a shared link bring them back.
 */
export default function TopicList() {
  useDocumentTitle('Topics')
  const me = useCurrentUser()
  const catalog = useTopicCatalog(me.id)
  const topics = catalog?.topics
  const pendingLimit = usePendingLimit()
  const { lastSyncedAt } = useSyncStatus()
  const [params, setParams] = useSearchParams()
  const filters = filtersFromParams(params)
  const query = useSearchWords(params, setParams)
  const listTop = useRef<HTMLDivElement>(null)

  const changeFilters = useCallback(
    (next: TopicFilterValues, typing = false) => {
      // A new result set starts at its first row.
      const top = listTop.current
      if (top && top.getBoundingClientRect().top < 0) {
        window.scrollTo({ top: top.getBoundingClientRect().top + window.scrollY - 16 })
      }
      // The words filter at once; the address follows a moment after the last key.
      query.set(next.q)
      if (typing) return
      // A filter choice writes the words too: nothing is left for the pending write.
      query.written.current = next.q
      setParams(
        () => {
          // The address as it is now, not as this render saw it.
          const out = new URLSearchParams(window.location.search)
          for (const [key, value] of [
            ['q', next.q],
            ['location', next.location === 'all' ? '' : next.location],
            ['seniority', next.seniority === 'all' ? '' : next.seniority],
          ] as const) {
            if (value === '') out.delete(key)
            else out.set(key, value)
          }
          return out
        },
        // A filter choice is a step back in history.
        { preventScrollReset: true },
      )
    },
    [setParams, query.set, query.written],
  )

  // An administrator's replica also holds everyone's proposals; those belong to /admin/topics.
  const visible = useMemo(
    () => (topics ?? []).filter((t) => canViewTopic({ id: me.id, isAdmin: false }, t)),
    [topics, me.id],
  )
  // The index is built once someone reaches for the search, not during every first sync.
  const [searchWanted, setSearchWanted] = useState(false)
  const search = useTopicSearch(visible, query.text, searchWanted)
  const { location, seniority } = filters
  const filterQuery = useMemo(() => toQuery({ location, seniority }), [location, seniority])
  const matching = useMemo(
    () => visible.filter((t) => matchesTopicFilters(t, filterQuery)),
    [visible, filterQuery],
  )
  // A keystroke's work is over the search's hits, not over every topic (10,000 at company scale):
  // each topic's place is looked up once per filter, and only once a search asks for it.
  const positionsOf = useMemo(() => {
    let positions: Map<string, number> | undefined
    return () => {
      positions ??= new Map(matching.map((t, i) => [t.id, i]))
      return positions
    }
  }, [matching])
  const shown = useMemo(() => {
    const { hits } = search
    if (!hits) return matching
    const positions = positionsOf()
    const found: { at: number; score: number }[] = []
    for (const [id, hit] of hits) {
      const at = positions.get(id)
      if (at !== undefined) found.push({ at, score: hit.score })
    }
    // Best first; equal scores in the list's own order.
    found.sort((a, b) => b.score - a.score || a.at - b.at)
    return found.map(({ at }) => matching[at] as (typeof matching)[number])
  }, [matching, positionsOf, search])

  const narrowed = query.text.trim() !== '' || location !== 'all' || seniority !== 'all'
  const loading =
    catalog === undefined ||
    (lastSyncedAt === null && catalog.topics.length === 0) ||
    // The first screen holds only the newest topics: a filter or search waits for them all.
    (!catalog.complete && narrowed)
  const searching = search.hits !== null

  return (
    <>
      <PageHeader
        title="Mentorship Topics"
        description="Find a mentor to learn from, or share what you know."
        actions={
          <LinkButton to={paths.createTopic}>
            <PlusIcon className="size-5" aria-hidden="true" />
            Create Topic
          </LinkButton>
        }
      />
      <Recommended limit={RECOMMENDED_ON_LIST} />
      <TopicFilters
        values={{ ...filters, q: query.text }}
        onChange={changeFilters}
        onSearchFocus={() => setSearchWanted(true)}
      />
      <div ref={listTop}>
        {loading ? (
          <PageSpinner text="Loading..." />
        ) : (
          <>
            {/* Said by screen readers each time; on screen only above results (the empty state says it). */}
            <p
              className={
                shown.length === 0 ? 'sr-only' : 'mb-3 text-sm text-slate-600 dark:text-slate-400'
              }
              role="status"
            >
              {catalog.complete
                ? resultLine(shown.length, searching, search.ready)
                : 'Newest topics first...'}
            </p>
            {shown.length === 0 ? (
              <EmptyTopics anyTopics={visible.length > 0} searching={searching} />
            ) : (
              <VirtualGrid
                items={shown}
                keyOf={topicKey}
                label="Topics"
                estimateRowHeight={300}
                cacheKey={`topics?${params}`}
                renderItem={(topic) => {
                  const hit = search.hits?.get(topic.id)
                  return (
                    <TopicCard
                      topic={topic}
                      me={me}
                      application={catalog.mine.get(topic.id)}
                      pendingLimit={pendingLimit}
                      terms={hit ? search.terms(hit) : undefined}
                      matchedText={hit?.inText}
                    />
                  )
                }}
              />
            )}
          </>
        )}
      </div>
    </>
  )
}

const topicKey = (topic: { id: string }) => topic.id

/** How long after the last key the search words go into the address. */
const ADDRESS_DELAY_MS = 300

/**
 * The search words: typed into local state (each key filters at once, with no
 * navigation), written into the address (`?q=`, replacing the entry) a
 * moment after the last key, and taken from the address when it changes
 * under the screen (Back, a link).
 */
function useSearchWords(params: URLSearchParams, setParams: ReturnType<typeof useSearchParams>[1]) {
  const inAddress = params.get('q') ?? ''
  const [text, setText] = useState(inAddress)
  const written = useRef(inAddress)
  useEffect(() => {
    if (inAddress === written.current) return
    written.current = inAddress
    setText(inAddress)
  }, [inAddress])
  useEffect(() => {
    if (text === written.current) return
    const timer = setTimeout(() => {
      if (text === written.current) return
      written.current = text
      setParams(
        () => {
          // The address as it is now (a filter may have changed it since this render).
          const out = new URLSearchParams(window.location.search)
          if (text === '') out.delete('q')
          else out.set('q', text)
          return out
        },
        { replace: true, preventScrollReset: true },
      )
    }, ADDRESS_DELAY_MS)
    return () => clearTimeout(timer)
  }, [text, setParams])
  return { text, set: setText, written }
}

function resultLine(n: number, searching: boolean, ready: boolean): string {
  if (searching && !ready) return 'Preparing search...'
  const topics = `${groupThousands(n)} ${n === 1 ? 'topic' : 'topics'}`
  return searching ? `${topics} found` : topics
}

type Catalog = {
  topics: Merged<SyncTopic>[]
  /** The user's own application per topic id. */
  mine: Map<string, Merged<SyncApplication>>
}

/** The last topics and applications each user database gave: a return visit lays out the list at once. */
const lastTopics = new Map<string, Merged<SyncTopic>[]>()
const lastMine = new Map<string, Catalog['mine']>()

async function readTopics(db: SyncDb): Promise<Merged<SyncTopic>[]> {
  const topics = await readTable(db, 'topics')
  lastTopics.set(db.name, topics)
  return topics
}

async function readMine(db: SyncDb, userId: string): Promise<Catalog['mine']> {
  const mine = mineByTopic(await readApplicationsOfMentee(db, userId))
  lastMine.set(db.name, mine)
  return mine
}

/** The user's application per topic (newest first: the latest one to a topic wins). */
function mineByTopic(applications: readonly Merged<SyncApplication>[]) {
  const mine = new Map<string, Merged<SyncApplication>>()
  for (const a of [...applications].reverse()) mine.set(a.topicId, a)
  return mine
}

/** How many recommendations the list shows above the filters. */
const RECOMMENDED_ON_LIST = 6

/**
 * What each of the catalog's reads follows: a page of applications (20,000 in a
 * company's first sync) reads the user's applications again, not every topic.
 */
const TOPIC_TABLES = ['topics', 'overlay', 'rejected'] as const
const MINE_TABLES = ['applications', 'overlay', 'rejected'] as const

/** How many of the newest topics the first screen reads before the whole table. */
const FIRST_SCREEN = 36

/**
 * The catalog, and until it is read (thousands of topics take a moment on a
 * phone) the newest topics through their index, so the first cards paint at
 * once on a cold start, online or offline. `complete` is false meanwhile.
 */
function useTopicCatalog(userId: string): (Catalog & { complete: boolean }) | undefined {
  const engine = useSyncEngine()
  const topics = useSyncedCoalesced(readTopics, TOPIC_TABLES, [], {
    initial: lastTopics.get(engine.db.name),
  })
  const mine = useSyncedCoalesced((db) => readMine(db, userId), MINE_TABLES, [userId], {
    initial: lastMine.get(engine.db.name),
  })
  const first = useSynced(
    async (db) => {
      if (lastTopics.has(db.name)) return null
      const [topics, applications] = await Promise.all([
        readNewestTopics(db, FIRST_SCREEN),
        readApplicationsOfMentee(db, userId),
      ])
      return { topics, mine: mineByTopic(applications) }
    },
    [userId],
  )
  // A new device: its first page, answered and not yet written, until the reads have rows.
  const page = useEarlyPage()
  const early = useMemo(() => {
    if (!page) return undefined
    const { topics, applications } = readEarlyPage(page, userId)
    return topics.length === 0 ? undefined : { topics, mine: mineByTopic(applications) }
  }, [page, userId])
  // The same object while neither read changed, and the same topics while only the user's
  // applications did: the list's memos over every topic hold.
  return useMemo(() => {
    if (topics && mine && (topics.length > 0 || !early)) return { topics, mine, complete: true }
    if (first && (first.topics.length > 0 || !early)) return { ...first, complete: false }
    return early ? { ...early, complete: false } : undefined
  }, [topics, mine, first, early])
}

const MIN_SEARCH = 2
/** A search this quick (ms) runs with the keystroke instead of after it. */
const INLINE_SEARCH_MS = 12

/**
 * The search of `query` over `topics`: the index is built (in slices) once
 * the search field is focused or words are given, then follows the topics; each keystroke is one index lookup,
 * with the keystroke when searches are quick, else deferred so the field answers
 * first. `hits` is null with no query.
 */
function useTopicSearch(topics: readonly Merged<SyncTopic>[], query: string, wanted: boolean) {
  const engine = useSyncEngine()
  const index = topicSearchIndex(engine.db.name)
  const needed = wanted || query.trim() !== ''
  useEffect(() => {
    if (topics.length > 0 && (needed || index.started)) index.sync(topics)
  }, [index, topics, needed])
  const revision = useSyncExternalStore(index.subscribe, index.getRevision)
  const deferred = useDeferredValue(query)
  // A search that took less than a frame last time runs with the keystroke: one render and
  // one paint. A deferred one costs a second render and a second frame after the field's
  // (about 50 ms a key even at 100 topics); it is kept for searches that are slow (a slow
  // phone at 10,000 topics), so the field answers first there.
  const lastSearchMs = useRef(0)
  const words = lastSearchMs.current <= INLINE_SEARCH_MS ? query : deferred
  return useMemo(() => {
    const started = performance.now()
    // One letter matches nearly everything: the search starts at two.
    const hits = words.trim().length < MIN_SEARCH ? null : index.search(words)
    if (hits) lastSearchMs.current = performance.now() - started
    const termSets = new WeakMap<TopicHit, ReadonlySet<string>>()
    return {
      hits,
      ready: index.ready,
      revision,
      /** The matched words of a hit, as one set (shared by the card's renders). */
      terms(hit: TopicHit): ReadonlySet<string> {
        let set = termSets.get(hit)
        if (!set) {
          set = new Set(hit.terms)
          termSets.set(hit, set)
        }
        return set
      },
    }
  }, [index, words, revision])
}

function EmptyTopics(props: { anyTopics: boolean; searching: boolean }) {
  if (!props.anyTopics) {
    return (
      <EmptyState
        title="No topics yet"
        icon={<RectangleStackIcon className="size-8" aria-hidden="true" />}
      >
        Be the first to offer one: choose Create Topic above.
      </EmptyState>
    )
  }
  return props.searching ? (
    <EmptyState title="No topics found" icon={<FunnelIcon className="size-8" aria-hidden="true" />}>
      Try other words, or fewer of them, or another location or seniority level.
    </EmptyState>
  ) : (
    <EmptyState
      title="No topics match these filters"
      icon={<FunnelIcon className="size-8" aria-hidden="true" />}
    >
      Try another location or seniority level.
    </EmptyState>
  )
}
