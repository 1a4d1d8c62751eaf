import { AcademicCapIcon, ClipboardDocumentCheckIcon } from '@heroicons/react/20/solid'
import { Link } from 'react-router-dom'
import { SENIORITY_LABELS, SENIORITY_LEVELS } from '../../../../shared/constants.ts'
import { checkReviewTopic } from '../../../../shared/topic.ts'
import { LocationLabel } from '../../components/topic/location-label.tsx'
import { MenteeCount } from '../../components/topic/mentee-count.tsx'
import { RejectionReason } from '../../components/topic/rejection-reason.tsx'
import { SyncState } from '../../components/topic/sync-state.tsx'
import { TopicLink } from '../../components/topic/topic-link.tsx'
import { TopicStatusBadge } from '../../components/topic/topic-status-badge.tsx'
import { Avatar } from '../../components/ui/avatar.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card } from '../../components/ui/card.tsx'
import { paths } from '../../lib/paths.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import type { SyncTopic } from '../../sync/engine/db.ts'
import type { Merged } from '../../sync/engine/overlay.ts'

/** Admins filter by the raw status words, so proposed reads "Proposed" here. */
const STATUS_WORDS = { proposed: 'Proposed' }

/** A topic as an administrator sees it: its facts, its status, and Review Topic while proposed. */
export function AdminTopicCard(props: { topic: Merged<SyncTopic>; onReview: () => void }) {
  const { topic } = props
  const me = useCurrentUser()
  const canReview = checkReviewTopic(me, topic).ok
  const levels = SENIORITY_LEVELS.filter((l) => topic.seniorityRequired.includes(l))
  const headingId = `admin-topic-${topic.id}`

  return (
    <Card className="flex h-full flex-col" role="article" aria-labelledby={headingId}>
      <div className="flex flex-1 flex-col gap-3 p-5">
        <div className="flex items-start justify-between gap-3">
          <h2 id={headingId} className="min-w-0 font-semibold text-slate-900 dark:text-white">
            <TopicLink topic={topic} />
          </h2>
          <TopicStatusBadge status={topic.status} labels={STATUS_WORDS} className="shrink-0" />
        </div>
        <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
          <Avatar user={topic.mentor} size="xs" />
          <span className="truncate">
            by{' '}
            <Link
              to={paths.profile(topic.mentor.username)}
              className="rounded-sm font-medium text-slate-800 hover:underline dark:text-slate-200"
            >
              {topic.mentor.full_name}
            </Link>
          </span>
        </p>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <MenteeCount current={topic.currentMentees} max={topic.maxMentees} />
          <LocationLabel location={topic.location} />
          <Badge tone="info" title="Seniority required">
            <AcademicCapIcon className="size-3.5" aria-hidden="true" />
            <span className="sr-only">Seniority: </span>
            {levels.map((l) => SENIORITY_LABELS[l]).join(', ')}
          </Badge>
        </div>
        {topic.status === 'rejected' && topic.rejectionReason && (
          <RejectionReason heading="Rejection reason:" reason={topic.rejectionReason} />
        )}
        <SyncState sync={topic.sync} />
      </div>
      {canReview && (
        <div className="flex justify-end border-t border-slate-200 px-5 py-3 dark:border-slate-800">
          <Button
            size="sm"
            onClick={props.onReview}
            aria-describedby={headingId}
            className="w-full sm:w-auto dark:bg-brand-600 dark:hover:bg-brand-500"
          >
            <ClipboardDocumentCheckIcon className="size-4" aria-hidden="true" />
            Review Topic
          </Button>
        </div>
      )}
    </Card>
  )
}
