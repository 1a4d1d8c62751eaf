import { ChatBubbleLeftRightIcon } from '@heroicons/react/24/outline'
import { Link } from 'react-router-dom'
import { SyncState } from '../../components/topic/sync-state.tsx'
import { Avatar } from '../../components/ui/avatar.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Card, CardBody } from '../../components/ui/card.tsx'
import { EmptyState } from '../../components/ui/page.tsx'
import { formatDate } from '../../lib/format.ts'
import { paths } from '../../lib/paths.ts'
import type { SyncFeedback, SyncTopic } from '../../sync/engine/db.ts'
import type { Merged } from '../../sync/engine/overlay.ts'
import { StarRating } from './star-rating.tsx'

const heading = 'text-base font-semibold text-slate-900 dark:text-white'

/** A concluded topic's mentor feedback and everyone's star feedback ("No feedback yet"). */
export function FeedbackSection(props: {
  topic: Merged<SyncTopic>
  feedback: Merged<SyncFeedback>[]
}) {
  const { topic, feedback } = props
  return (
    <>
      <Card>
        <CardBody>
          <h2 className={heading}>Mentor feedback</h2>
          <div className="mt-3 flex gap-3">
            <Avatar user={topic.mentor} size="sm" />
            <p className="min-w-0 flex-1 whitespace-pre-line text-slate-700 dark:text-slate-300">
              {topic.mentorFeedback?.trim() || 'The mentor left no feedback.'}
            </p>
          </div>
        </CardBody>
      </Card>
      <Card>
        <CardBody>
          <h2 className={heading}>Feedback</h2>
          {feedback.length === 0 ? (
            <EmptyState
              title="No feedback yet"
              className="mt-4 py-8"
              icon={<ChatBubbleLeftRightIcon className="size-7" aria-hidden="true" />}
            />
          ) : (
            <ul
              className="mt-2 divide-y divide-slate-100 dark:divide-slate-800"
              aria-label="Feedback"
            >
              {feedback.map((item) => (
                <FeedbackItem key={item.id} item={item} />
              ))}
            </ul>
          )}
        </CardBody>
      </Card>
    </>
  )
}

function FeedbackItem(props: { item: Merged<SyncFeedback> }) {
  const { item } = props
  return (
    <li className="py-4 last:pb-0" data-testid="feedback-item">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Link
          to={paths.profile(item.user.username)}
          className="font-medium text-slate-900 hover:text-brand-700 dark:text-white dark:hover:text-brand-300"
        >
          {item.user.full_name || item.user.username}
        </Link>
        {item.isMentor && <Badge tone="brand">Mentor</Badge>}
        <StarRating rating={item.rating} />
        <span className="text-xs text-slate-500 dark:text-slate-400">
          {formatDate(item.updatedAt)}
        </span>
      </div>
      <p className="mt-1.5 whitespace-pre-line text-slate-700 dark:text-slate-300">
        {item.feedback}
      </p>
      <SyncState sync={item.sync} className="mt-2" />
    </li>
  )
}
