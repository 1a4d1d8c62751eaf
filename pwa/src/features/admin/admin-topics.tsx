import { Field, Label } from '@headlessui/react'
import { RectangleStackIcon } from '@heroicons/react/24/outline'
import { useState } from 'react'
import { EmptyState, PageHeader } from '../../components/ui/page.tsx'
import { SearchBox } from '../../components/ui/search-box.tsx'
import { Select, type SelectOption } from '../../components/ui/select.tsx'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { VirtualGrid } from '../../components/ui/virtual-grid.tsx'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import type { SyncDb, SyncTopic } from '../../sync/engine/db.ts'
import { useSyncedCoalesced } from '../../sync/engine/react.ts'
import { readTable } from '../../sync/engine/view.ts'
import { AdminTopicCard } from './admin-topic-card.tsx'
import { FollowUpLists } from './follow-up.tsx'
import { ReviewDialog } from './review-dialog.tsx'

type StatusFilter = 'all' | 'proposed' | 'approved' | 'rejected'

const FILTERS: readonly SelectOption<StatusFilter>[] = [
  { value: 'all', label: 'All statuses' },
  { value: 'proposed', label: 'Proposed' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
]

const TABLES = ['topics', 'overlay', 'rejected'] as const
const readTopics = (db: SyncDb) => readTable(db, 'topics')
const TWO_FROM_LG = [[1024, 2]] as const

/**
 * Topic management (spec section 2): what needs following up (issue 18),
 * then every topic, searchable, with reviews of proposed ones.
 */
export default function AdminTopics() {
  useDocumentTitle('Topic Management')
  const topics = useSyncedCoalesced(readTopics, TABLES, [])
  const [query, setQuery] = useState('')
  const [status, setStatus] = useState<StatusFilter>('all')
  const [reviewing, setReviewing] = useState<SyncTopic | null>(null)

  const needle = query.trim().toLowerCase()
  const shown = (topics ?? []).filter(
    (t) =>
      (status === 'all' || t.status === status) &&
      (!needle || t.subject.toLowerCase().includes(needle)),
  )
  const proposed = topics?.filter((t) => t.status === 'proposed').length ?? 0

  return (
    <>
      <PageHeader
        title="Topic Management"
        description={
          topics === undefined
            ? 'Review proposed topics and follow every topic of the programme.'
            : `${topics.length} ${topics.length === 1 ? 'topic' : 'topics'}, ${proposed} waiting for review.`
        }
      />
      <FollowUpLists />
      <div className="mb-6 grid gap-3 sm:grid-cols-[1fr_14rem]">
        <SearchBox
          label="Search topics"
          placeholder="Search by subject"
          value={query}
          onChange={setQuery}
        />
        <Field className="space-y-1.5">
          <Label className="block text-sm font-medium text-slate-800 dark:text-slate-200">
            Status
          </Label>
          <Select value={status} onChange={setStatus} options={FILTERS} />
        </Field>
      </div>
      {topics === undefined ? (
        <PageSpinner />
      ) : shown.length === 0 ? (
        <EmptyState
          icon={<RectangleStackIcon className="size-8" aria-hidden="true" />}
          title={topics.length === 0 ? 'No topics yet' : 'No topics match your search'}
        >
          {topics.length > 0 && 'Try another subject or status.'}
        </EmptyState>
      ) : (
        <VirtualGrid
          items={shown}
          keyOf={(topic) => topic.id}
          label="Topics"
          estimateRowHeight={240}
          breakpoints={TWO_FROM_LG}
          cacheKey={`admin-topics?${status}&${needle}`}
          renderItem={(topic) => (
            <AdminTopicCard topic={topic} onReview={() => setReviewing(topic)} />
          )}
        />
      )}
      <ReviewDialog topic={reviewing} onClose={() => setReviewing(null)} />
    </>
  )
}
