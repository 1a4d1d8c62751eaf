import { CalendarDaysIcon, UserIcon } from '@heroicons/react/20/solid'
import { Link } from 'react-router-dom'
import { RejectionReason } from '../../components/topic/rejection-reason.tsx'
import { SyncState } from '../../components/topic/sync-state.tsx'
import { TopicLink } from '../../components/topic/topic-link.tsx'
import { Card, CardBody } from '../../components/ui/card.tsx'
import { formatDate } from '../../lib/format.ts'
import { paths } from '../../lib/paths.ts'
import type { SyncApplication } from '../../sync/engine/db.ts'
import type { Merged } from '../../sync/engine/overlay.ts'
import { ApplicationStatusBadge } from './application-status-badge.tsx'

/** One of the user's applications: the topic, its mentor, the status (accepted reads Active). */
export function EnrollmentCard(props: { application: Merged<SyncApplication> }) {
  const { application } = props
  const { topic } = application
  const headingId = `enrollment-${application.id}`
  return (
    <Card className="h-full" role="article" aria-labelledby={headingId}>
      <CardBody className="flex h-full flex-col gap-3">
        <div className="flex items-start justify-between gap-3">
          <h3 id={headingId} className="min-w-0 font-semibold text-slate-900 dark:text-white">
            <TopicLink topic={topic} />
          </h3>
          <ApplicationStatusBadge status={application.status} asMentee className="shrink-0" />
        </div>
        <div className="space-y-1 text-sm text-slate-600 dark:text-slate-400">
          <p className="flex items-center gap-1.5">
            <UserIcon className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
            <span>
              Mentor:{' '}
              <Link
                to={paths.profile(topic.mentor.username)}
                className="rounded-sm font-medium text-slate-800 hover:text-brand-700 hover:underline dark:text-slate-200 dark:hover:text-brand-300"
              >
                {topic.mentor.username}
              </Link>
            </span>
          </p>
          <p className="flex items-center gap-1.5">
            <CalendarDaysIcon className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
            <span>
              Applied{' '}
              <time dateTime={application.createdAt}>{formatDate(application.createdAt)}</time>
            </span>
          </p>
        </div>
        {application.status === 'rejected' && application.rejectionReason && (
          <RejectionReason heading="Rejection reason:" reason={application.rejectionReason} />
        )}
        <SyncState sync={application.sync} />
      </CardBody>
    </Card>
  )
}
