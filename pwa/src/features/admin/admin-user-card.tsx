import { ShieldCheckIcon } from '@heroicons/react/20/solid'
import { Link } from 'react-router-dom'
import { SeniorityBadge } from '../../components/topic/seniority-badges.tsx'
import { SyncState } from '../../components/topic/sync-state.tsx'
import { Avatar } from '../../components/ui/avatar.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Card } from '../../components/ui/card.tsx'
import { paths } from '../../lib/paths.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import type { SyncUser } from '../../sync/engine/db.ts'
import type { Merged } from '../../sync/engine/overlay.ts'
import { AdminSwitch } from './admin-switch.tsx'

/** A person: a link to their profile, their seniority, Administrator, and the Admin switch. */
export function AdminUserCard(props: { user: Merged<SyncUser> }) {
  const { user } = props
  const me = useCurrentUser()
  return (
    <Card className="flex h-full flex-col">
      <Link
        to={paths.profile(user.username)}
        className="group flex flex-1 items-start gap-3 rounded-t-xl p-5 hover:bg-slate-50 dark:hover:bg-slate-800/50"
      >
        <Avatar user={user} size="md" />
        <div className="min-w-0 flex-1">
          <p className="truncate font-semibold text-slate-900 group-hover:text-brand-700 dark:text-white dark:group-hover:text-brand-300">
            {user.full_name}
          </p>
          <p className="truncate text-sm text-slate-600 dark:text-slate-400">@{user.username}</p>
          <div className="mt-2 flex flex-wrap gap-1.5">
            {user.seniority ? (
              <SeniorityBadge level={user.seniority} />
            ) : (
              <Badge tone="neutral">Seniority not set</Badge>
            )}
            {user.isAdmin && (
              <Badge tone="violet">
                <ShieldCheckIcon className="size-3.5" aria-hidden="true" />
                Administrator
              </Badge>
            )}
          </div>
        </div>
      </Link>
      <div className="space-y-2 border-t border-slate-200 px-5 py-3 dark:border-slate-800">
        <AdminSwitch user={user} me={me} />
        <SyncState sync={user.sync} />
      </div>
    </Card>
  )
}
