import { PlusIcon, RectangleStackIcon } from '@heroicons/react/24/outline'
import { useState } from 'react'
import { LinkButton } from '../../components/ui/button.tsx'
import { EmptyState } from '../../components/ui/page.tsx'
import type { SelectOption } from '../../components/ui/select.tsx'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { paths } from '../../lib/paths.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import { useSynced } from '../../sync/engine/react.ts'
import { readMentorTopics } from '../../sync/engine/view.ts'
import { FilterSelect, optionWord } from './filter-select.tsx'
import { MentorTopicCard } from './mentor-topic-card.tsx'

type TopicFilter = 'all' | 'proposed' | 'approved' | 'rejected' | 'concluded'

/** Pending is the proposed state; started topics show under All Topics only. */
const FILTERS: readonly SelectOption<TopicFilter>[] = [
  { value: 'all', label: 'All Topics' },
  { value: 'proposed', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
  { value: 'concluded', label: 'Concluded' },
]

/** The My Topics tab: "Topics I Mentor", each with its applications. */
export function MyTopics() {
  const me = useCurrentUser()
  const topics = useSynced((db) => readMentorTopics(db, me.id), [me.id])
  const [filter, setFilter] = useState<TopicFilter>('all')

  const mine = topics ?? []
  const shown = filter === 'all' ? mine : mine.filter((t) => t.topic.status === filter)

  return (
    <section aria-labelledby="my-topics-heading">
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 id="my-topics-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
          Topics I Mentor
        </h2>
        <FilterSelect label="Status" value={filter} onChange={setFilter} options={FILTERS} />
      </div>
      {topics === undefined ? (
        <PageSpinner />
      ) : shown.length === 0 ? (
        <EmptyState
          icon={<RectangleStackIcon className="size-8" aria-hidden="true" />}
          title={
            filter === 'all'
              ? "You haven't created any topics yet"
              : `No ${optionWord(FILTERS, filter)} topics found`
          }
        >
          {filter === 'all' && (
            <LinkButton to={paths.createTopic} size="sm" className="mt-2">
              <PlusIcon className="size-4" aria-hidden="true" />
              Propose a topic
            </LinkButton>
          )}
        </EmptyState>
      ) : (
        <ul className="grid grid-cols-1 gap-4">
          {shown.map(({ topic, applications }) => (
            <li key={topic.id}>
              <MentorTopicCard topic={topic} applications={applications} />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
