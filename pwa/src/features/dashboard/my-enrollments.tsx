import { AcademicCapIcon, MagnifyingGlassIcon } from '@heroicons/react/24/outline'
import { useState } from 'react'
import { LinkButton } from '../../components/ui/button.tsx'
import { EmptyState } from '../../components/ui/page.tsx'
import type { SelectOption } from '../../components/ui/select.tsx'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { paths } from '../../lib/paths.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import { useSynced } from '../../sync/engine/react.ts'
import { readApplicationsOfMentee } from '../../sync/engine/view.ts'
import { EnrollmentCard } from './enrollment-card.tsx'
import { FilterSelect, optionWord } from './filter-select.tsx'

type EnrollmentFilter = 'all' | 'pending' | 'accepted' | 'rejected'

const FILTERS: readonly SelectOption<EnrollmentFilter>[] = [
  { value: 'all', label: 'All Enrollments' },
  { value: 'pending', label: 'Pending' },
  { value: 'accepted', label: 'Active' },
  { value: 'rejected', label: 'Rejected' },
]

/**
 * The My Enrollments tab: the user's own applications. The applications
 * table also holds the applications to the user's topics; only their own show.
 */
export function MyEnrollments() {
  const me = useCurrentUser()
  const applications = useSynced((db) => readApplicationsOfMentee(db, me.id), [me.id])
  const [filter, setFilter] = useState<EnrollmentFilter>('all')

  const mine = applications ?? []
  const shown = filter === 'all' ? mine : mine.filter((a) => a.status === filter)

  return (
    <section aria-labelledby="my-enrollments-heading">
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h2
          id="my-enrollments-heading"
          className="text-xl font-semibold text-slate-900 dark:text-white"
        >
          My Enrollments
        </h2>
        <FilterSelect label="Status" value={filter} onChange={setFilter} options={FILTERS} />
      </div>
      {applications === undefined ? (
        <PageSpinner />
      ) : shown.length === 0 ? (
        <EmptyState
          icon={<AcademicCapIcon className="size-8" aria-hidden="true" />}
          title={
            filter === 'all'
              ? "You haven't applied to any topics yet"
              : `No ${optionWord(FILTERS, filter)} enrollments found`
          }
        >
          {filter === 'all' && (
            <LinkButton to={paths.topics} size="sm" className="mt-2">
              <MagnifyingGlassIcon className="size-4" aria-hidden="true" />
              Browse Topics
            </LinkButton>
          )}
        </EmptyState>
      ) : (
        <ul className="grid grid-cols-1 gap-4 md:grid-cols-2">
          {shown.map((application) => (
            <li key={application.id}>
              <EnrollmentCard application={application} />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
