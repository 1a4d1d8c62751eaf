import { ArrowPathIcon, ClockIcon, ExclamationTriangleIcon } from '@heroicons/react/20/solid'
import { XMarkIcon } from '@heroicons/react/24/outline'
import type { RowSyncState } from '../../sync/engine/overlay.ts'
import { useSyncEngine } from '../../sync/engine/react.ts'
import { Badge } from '../ui/badge.tsx'
import { cn } from '../ui/cn.ts'

/**
 * What sync knows about a merged row (`row.sync`): "Waiting to sync" while a
 * change is not confirmed, "Awaiting confirmation" when the server may still
 * refuse it (an apply to a topic that may fill up), and each refused change
 * with the server's reason and a way to dismiss it. Renders nothing for a
 * row that is in step with the server.
 *
 * @example
 * <SyncState sync={topic.sync} />
 */
export function SyncState(props: { sync: RowSyncState; className?: string }) {
  const { sync } = props
  if (!sync.pending && sync.rejected.length === 0) return null
  return (
    <div className={cn('flex flex-col gap-2', props.className)}>
      {sync.pending && <PendingBadge awaiting={sync.awaitingConfirmation} />}
      {sync.rejected.map((refusal) => (
        <Refusal key={refusal.mutationId} {...refusal} />
      ))}
    </div>
  )
}

/** Just the badge (no refusals): for rows where space is tight. */
export function PendingBadge(props: { awaiting: boolean; className?: string }) {
  return props.awaiting ? (
    <Badge tone="info" className={cn('self-start', props.className)}>
      <ClockIcon className="size-3.5" aria-hidden="true" />
      Awaiting confirmation
    </Badge>
  ) : (
    <Badge tone="warning" className={cn('self-start', props.className)}>
      <ArrowPathIcon className="size-3.5" aria-hidden="true" />
      Waiting to sync
    </Badge>
  )
}

function Refusal(props: RowSyncState['rejected'][number]) {
  const engine = useSyncEngine()
  return (
    <div className="flex items-start gap-2 rounded-lg bg-red-50 p-3 text-sm ring-1 ring-red-600/20 ring-inset dark:bg-red-950/50 dark:ring-red-400/30">
      <ExclamationTriangleIcon
        className="mt-0.5 size-4 shrink-0 text-red-600 dark:text-red-400"
        aria-hidden="true"
      />
      <div className="min-w-0 flex-1">
        <p className="font-medium text-red-800 dark:text-red-200">Not saved: {props.label}</p>
        <p className="mt-0.5 text-red-700 dark:text-red-300">{props.detail}</p>
      </div>
      <button
        type="button"
        onClick={() => void engine.dismissRejected(props.mutationId)}
        className="-m-1 rounded-md p-1 text-red-700 hover:bg-red-100 dark:text-red-300 dark:hover:bg-red-900/60"
        aria-label="Dismiss"
      >
        <XMarkIcon className="size-4" aria-hidden="true" />
      </button>
    </div>
  )
}
