import { CheckIcon, XMarkIcon } from '@heroicons/react/20/solid'
import { useState } from 'react'
import { Link } from 'react-router-dom'
import { checkDecideApplication } from '../../../../shared/application.ts'
import { SENIORITY_LABELS } from '../../../../shared/constants.ts'
import { SyncState } from '../../components/topic/sync-state.tsx'
import { Button } from '../../components/ui/button.tsx'
import { paths } from '../../lib/paths.ts'
import { useChange } from '../../lib/use-change.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import type { SyncApplication, SyncTopic } from '../../sync/engine/db.ts'
import type { Merged } from '../../sync/engine/overlay.ts'
import { useMutations } from '../../sync/engine/react.ts'
import { ApplicationStatusBadge } from './application-status-badge.tsx'

// The shared success colour is too light behind small white text (AA): one shade darker.
const ACCEPT_CLASSES =
  'flex-1 bg-emerald-700 hover:bg-emerald-800 dark:bg-emerald-700 dark:hover:bg-emerald-600'

/**
 * One application on a mentor's topic card: who applied and their seniority;
 * Reject and Accept while it is pending, otherwise its status.
 */
export function ApplicationRow(props: {
  application: Merged<SyncApplication>
  topic: Merged<SyncTopic>
  onReject: () => void
}) {
  const { application, topic } = props
  const me = useCurrentUser()
  const change = useChange()
  const mutate = useMutations()
  const [accepting, setAccepting] = useState(false)
  const { mentee } = application
  const acceptable = checkDecideApplication(me, topic, application, 'accepted')
  const hintId = `accept-hint-${application.id}`

  const accept = async () => {
    setAccepting(true)
    try {
      await change(() => mutate.acceptApplication(application.id), {
        success: 'Application accepted successfully',
      })
    } finally {
      setAccepting(false)
    }
  }

  return (
    <li
      className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between"
      aria-label={`Application from ${mentee.username}`}
    >
      <div className="min-w-0 space-y-1">
        <Link
          to={paths.profile(mentee.username)}
          className="rounded-sm font-medium break-all text-slate-900 hover:text-brand-700 hover:underline dark:text-white dark:hover:text-brand-300"
        >
          {mentee.username}
        </Link>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Seniority: {mentee.seniority ? SENIORITY_LABELS[mentee.seniority] : 'Not specified'}
        </p>
        {application.status === 'rejected' && application.rejectionReason && (
          <p className="text-sm whitespace-pre-line text-red-700 dark:text-red-300">
            Rejection reason: {application.rejectionReason}
          </p>
        )}
        <SyncState sync={application.sync} />
      </div>
      {application.status === 'pending' ? (
        <div className="flex shrink-0 flex-col items-stretch gap-1 sm:items-end">
          <div className="flex gap-2">
            <Button variant="secondary" size="sm" onClick={props.onReject} className="flex-1">
              <XMarkIcon className="size-4 text-red-600 dark:text-red-400" aria-hidden="true" />
              Reject
            </Button>
            <Button
              variant="success"
              size="sm"
              onClick={accept}
              busy={accepting}
              disabled={!acceptable.ok}
              aria-describedby={acceptable.ok ? undefined : hintId}
              className={ACCEPT_CLASSES}
            >
              {!accepting && <CheckIcon className="size-4" aria-hidden="true" />}
              Accept
            </Button>
          </div>
          {!acceptable.ok && (
            <p
              id={hintId}
              className="max-w-64 text-xs text-slate-600 sm:text-right dark:text-slate-400"
            >
              {acceptable.reason}
            </p>
          )}
        </div>
      ) : (
        <ApplicationStatusBadge status={application.status} className="self-start sm:self-center" />
      )}
    </li>
  )
}
