import { UsersIcon } from '@heroicons/react/24/outline'
import { useState } from 'react'
import { EmptyState, PageHeader } from '../../components/ui/page.tsx'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { useSyncedTable } from '../../sync/engine/react.ts'
import { AdminUserCard } from './admin-user-card.tsx'
import { SearchBox } from './search-box.tsx'

/** User management (spec section 2): everyone, searchable by username, with the Admin switch. */
export default function AdminUsers() {
  useDocumentTitle('User Management')
  const users = useSyncedTable('users')
  const [query, setQuery] = useState('')

  const needle = query.trim().toLowerCase()
  const shown = (users ?? [])
    .filter((u) => !needle || u.username.toLowerCase().includes(needle))
    .sort((a, b) => a.username.localeCompare(b.username))
  const admins = users?.filter((u) => u.isAdmin).length ?? 0

  return (
    <>
      <PageHeader
        title="User Management"
        description={
          users === undefined
            ? 'Everyone in the programme, and who administers it.'
            : `${users.length} ${users.length === 1 ? 'person' : 'people'}, ${admins} ${admins === 1 ? 'administrator' : 'administrators'}.`
        }
      />
      <SearchBox
        label="Search users"
        placeholder="Search by username"
        value={query}
        onChange={setQuery}
        className="mb-6 sm:max-w-md"
      />
      {users === undefined ? (
        <PageSpinner />
      ) : shown.length === 0 ? (
        <EmptyState
          icon={<UsersIcon className="size-8" aria-hidden="true" />}
          title="No users match your search"
        >
          Try another username.
        </EmptyState>
      ) : (
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {shown.map((user) => (
            <li key={user.id}>
              <AdminUserCard user={user} />
            </li>
          ))}
        </ul>
      )}
    </>
  )
}
