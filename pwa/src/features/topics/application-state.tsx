import { CheckCircleIcon, ClockIcon, XCircleIcon } from '@heroicons/react/20/solid'
import type { ApplicationStatus } from '../../../../shared/constants.ts'
import { PendingBadge } from '../../components/topic/sync-state.tsx'
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx'
import type { SyncApplication } from '../../sync/engine/db.ts'
import type { Merged } from '../../sync/engine/overlay.ts'

/** How the list shows the user's own application (spec section 2). */
const LABELS: Record<ApplicationStatus, { text: string; tone: BadgeTone; icon: typeof ClockIcon }> =
  {
    pending: { text: 'Application Pending', tone: 'warning', icon: ClockIcon },
    accepted: { text: 'Accepted', tone: 'success', icon: CheckCircleIcon },
    rejected: { text: 'Rejected', tone: 'danger', icon: XCircleIcon },
  }

/**
 * The user's own application to a topic: its status badge and, when
 * rejected, the reason. An apply the server has not confirmed yet reads
 * "Awaiting confirmation" rather than pretending it went through.
 */
export function ApplicationState(props: { application: Merged<SyncApplication> }) {
  const { application } = props
  if (application.sync.pending && application.status === 'pending') {
    return <PendingBadge awaiting={application.sync.awaitingConfirmation} />
  }
  const { text, tone, icon: Icon } = LABELS[application.status]
  return (
    <div className="flex flex-col items-start gap-1.5">
      <Badge tone={tone}>
        <Icon className="size-3.5" aria-hidden="true" />
        {text}
      </Badge>
      {application.status === 'rejected' && application.rejectionReason && (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          <span className="font-medium text-slate-700 dark:text-slate-300">Reason: </span>
          {application.rejectionReason}
        </p>
      )}
    </div>
  )
}
