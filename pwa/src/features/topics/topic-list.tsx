import { FunnelIcon, PlusIcon, RectangleStackIcon } from '@heroicons/react/20/solid'
import { useMemo, useState } from 'react'
import { canViewTopic, matchesTopicFilters } from '../../../../shared/topic.ts'
import { LinkButton } from '../../components/ui/button.tsx'
import { EmptyState, PageHeader } from '../../components/ui/page.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { paths } from '../../lib/paths.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import type { SyncApplication } from '../../sync/engine/db.ts'
import type { Merged } from '../../sync/engine/overlay.ts'
import { useSyncedTable, useSyncStatus } from '../../sync/engine/react.ts'
import { TopicCard } from './topic-card.tsx'
import { TopicFilters, type TopicFilterValues, toQuery } from './topic-filters.tsx'

/**
 * /topics (spec section 2): every topic the user may see — the public ones
 * and their own proposed or rejected ones — as a filterable grid of cards.
 */
export default function TopicList() {
  useDocumentTitle('Topics')
  const me = useCurrentUser()
  const topics = useSyncedTable('topics')
  const applications = useSyncedTable('applications')
  const { lastSyncedAt } = useSyncStatus()
  const [filters, setFilters] = useState<TopicFilterValues>({ location: 'all', seniority: 'all' })

  // An administrator's replica also holds everyone's proposals; those belong to /admin/topics.
  const visible = useMemo(
    () => (topics ?? []).filter((t) => canViewTopic({ id: me.id, isAdmin: false }, t)),
    [topics, me.id],
  )
  const shown = useMemo(
    () => visible.filter((t) => matchesTopicFilters(t, toQuery(filters))),
    [visible, filters],
  )
  const mine = useMemo(() => {
    const byTopic = new Map<string, Merged<SyncApplication>>()
    for (const a of applications ?? []) if (a.mentee.id === me.id) byTopic.set(a.topicId, a)
    return byTopic
  }, [applications, me.id])

  const loading = topics === undefined || (lastSyncedAt === null && topics.length === 0)

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
      <TopicFilters values={filters} onChange={setFilters} />
      {loading ? (
        <div
          className="flex items-center justify-center gap-3 py-16 text-slate-600 dark:text-slate-400"
          role="status"
        >
          <Spinner className="size-5 text-brand-600 dark:text-brand-400" label={null} />
          Loading...
        </div>
      ) : shown.length === 0 ? (
        <EmptyTopics anyTopics={visible.length > 0} />
      ) : (
        <ul className="grid grid-cols-1 gap-5 md:grid-cols-2 lg:grid-cols-3" aria-label="Topics">
          {shown.map((topic) => (
            <li key={topic.id}>
              <TopicCard topic={topic} me={me} application={mine.get(topic.id)} />
            </li>
          ))}
        </ul>
      )}
    </>
  )
}

function EmptyTopics(props: { anyTopics: boolean }) {
  return props.anyTopics ? (
    <EmptyState
      title="No topics match these filters"
      icon={<FunnelIcon className="size-8" aria-hidden="true" />}
    >
      Try another location or seniority level.
    </EmptyState>
  ) : (
    <EmptyState
      title="No topics yet"
      icon={<RectangleStackIcon className="size-8" aria-hidden="true" />}
    >
      Be the first to offer one: choose Create Topic above.
    </EmptyState>
  )
}
