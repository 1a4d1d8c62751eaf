import { ShieldCheckIcon } from '@heroicons/react/20/solid'
import { SENIORITY_LABELS } from '../../../../shared/constants.ts'
import type { User } from '../../../../shared/user.ts'
import { SyncState } from '../../components/topic/sync-state.tsx'
import { Avatar } from '../../components/ui/avatar.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Card } from '../../components/ui/card.tsx'
import type { RowSyncState } from '../../sync/engine/overlay.ts'

/** The top of a profile: avatar (photo or initials), full name as the page's h1, username, badges. */
export function ProfileHeader(props: { user: User & { sync: RowSyncState } }) {
  const { user } = props
  return (
    <Card className="overflow-hidden">
      <div
        className="h-24 bg-gradient-to-r from-brand-600 via-brand-500 to-sky-500 sm:h-28 dark:from-brand-800 dark:via-brand-700 dark:to-sky-800"
        aria-hidden="true"
      />
      <div className="px-5 pb-6 sm:px-8">
        <div className="-mt-10 flex flex-col gap-4 sm:flex-row sm:items-end sm:gap-6">
          <Avatar user={user} size="xl" className="ring-4" />
          <div className="min-w-0 flex-1">
            <h1 className="truncate text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-white">
              {user.full_name || user.username}
            </h1>
            <p className="truncate text-sm text-slate-600 dark:text-slate-400">@{user.username}</p>
          </div>
          <div className="flex flex-wrap gap-2 sm:pb-2">
            {user.isAdmin && (
              <Badge tone="violet">
                <ShieldCheckIcon className="size-3.5" aria-hidden="true" />
                Administrator
              </Badge>
            )}
            {user.seniority && <Badge tone="brand">{SENIORITY_LABELS[user.seniority]}</Badge>}
          </div>
        </div>
        <SyncState sync={user.sync} className="mt-4" />
      </div>
    </Card>
  )
}
