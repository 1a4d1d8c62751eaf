import { UsersIcon } from '@heroicons/react/24/outline'
import { useMemo, useState } from 'react'
import { EmptyState, PageHeader } from '../../components/ui/page.tsx'
import { SearchBox } from '../../components/ui/search-box.tsx'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { VirtualGrid } from '../../components/ui/virtual-grid.tsx'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import type { SyncDb } from '../../sync/engine/db.ts'
import { useSyncedCoalesced } from '../../sync/engine/react.ts'
import { readTable } from '../../sync/engine/view.ts'
import { AdminUserCard } from './admin-user-card.tsx'

const BY_NAME = new Intl.Collator()
const TABLES = ['users', 'overlay', 'rejected'] as const
const readUsers = (db: SyncDb) => readTable(db, 'users')
const USER_GRID = [
  [640, 2],
  [1024, 3],
] as const

/** User management (spec section 2): everyone, searchable by username, with the Admin switch. */
export default function AdminUsers() {
  useDocumentTitle('User Management')
  const users = useSyncedCoalesced(readUsers, TABLES, [])
  const [query, setQuery] = useState('')

  const needle = query.trim().toLowerCase()
  const sorted = useMemo(
    () => [...(users ?? [])].sort((a, b) => BY_NAME.compare(a.username, b.username)),
    [users],
  )
  const shown = useMemo(
    () => (needle ? sorted.filter((u) => u.username.toLowerCase().includes(needle)) : sorted),
    [sorted, needle],
  )
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
        <VirtualGrid
          items={shown}
          keyOf={(user) => user.id}
          label="Users"
          estimateRowHeight={140}
          breakpoints={USER_GRID}
          cacheKey={`admin-users?${needle}`}
          renderItem={(user) => <AdminUserCard user={user} />}
        />
      )}
    </>
  )
}
