import { UserIcon } from '@heroicons/react/20/solid'
import type { PendingLimit } from '../../../../shared/application.ts'
import { isTopicFull, isTopicMentor } from '../../../../shared/topic.ts'
import type { User } from '../../../../shared/user.ts'
import { applyOffer } from '../../components/topic/apply-rule.ts'
import { SyncState } from '../../components/topic/sync-state.tsx'
import { TopicStatusBadge } from '../../components/topic/topic-status-badge.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import type { SyncApplication, SyncTopic } from '../../sync/engine/db.ts'
import type { Merged } from '../../sync/engine/overlay.ts'
import { ApplicationState } from './application-state.tsx'
import { ApplyButton } from './apply-button.tsx'

/** How the list words a status that is not the public "open" one. */
export const LIST_STATUS_LABELS = { proposed: 'Pending Review' } as const

/**
 * A card's state area (spec section 2): Apply when the rules of section 5
 * allow it (or, under the programme's pending limit, why not), "In Progress" for a started topic, the user's own application,
 * the status of the user's own unpublished topic, and anything sync has to
 * say (a refused apply, with the server's reason).
 */
export function TopicState(props: {
  topic: Merged<SyncTopic>
  me: User
  application: Merged<SyncApplication> | undefined
  /** The person's pending applications and the programme's limit (issue 18). */
  pendingLimit?: PendingLimit | undefined
}) {
  const { topic, me, application } = props
  const offer = applyOffer(me, topic, application !== undefined, props.pendingLimit)
  const own = isTopicMentor(me, topic)
  const full = isTopicFull(topic)
  const parts = [
    topic.status !== 'approved' && (
      <TopicStatusBadge key="status" status={topic.status} labels={LIST_STATUS_LABELS} />
    ),
    application && <ApplicationState key="application" application={application} />,
    own && topic.status === 'approved' && (
      <Badge key="own" tone="brand">
        <UserIcon className="size-3.5" aria-hidden="true" />
        Your topic
      </Badge>
    ),
    !own && !application && topic.status === 'approved' && full && <Badge key="full">Full</Badge>,
    offer.kind === 'apply' && (
      <ApplyButton key="apply" topicId={topic.id} subject={topic.subject} />
    ),
    offer.kind === 'limited' && (
      <p
        key="limit"
        className="text-xs text-slate-600 dark:text-slate-400"
        data-testid="apply-limit"
      >
        {offer.message}
      </p>
    ),
  ].filter(Boolean)
  const hasSync = topic.sync.pending || topic.sync.rejected.length > 0
  if (parts.length === 0 && !hasSync) return null
  return (
    <div className="flex flex-col gap-3">
      {parts.length > 0 && <div className="flex flex-wrap items-center gap-2">{parts}</div>}
      <SyncState sync={topic.sync} />
    </div>
  )
}
