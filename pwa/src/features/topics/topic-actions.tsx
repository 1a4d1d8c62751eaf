import { CheckBadgeIcon, PencilSquareIcon, PlayIcon, StarIcon } from '@heroicons/react/20/solid'
import { useState } from 'react'
import { checkGiveFeedback } from '../../../../shared/feedback.ts'
import { checkConcludeTopic, checkEditTopic, checkStartTopic } from '../../../../shared/topic.ts'
import type { User } from '../../../../shared/user.ts'
import { Button, LinkButton } from '../../components/ui/button.tsx'
import { paths } from '../../lib/paths.ts'
import type { SyncFeedback, SyncTopic } from '../../sync/engine/db.ts'
import { ConcludeDialog } from './conclude-dialog.tsx'
import { FeedbackDialog } from './feedback-dialog.tsx'
import { StartDialog } from './start-dialog.tsx'

const icon = 'size-4'

/**
 * The detail page's buttons, each shown only when the shared rules allow it
 * (spec section 6): Edit Topic, Start Topic, Conclude Topic, Add/Edit Feedback.
 */
export function TopicActions(props: {
  topic: SyncTopic
  me: User
  isAcceptedMentee: boolean
  myFeedback: SyncFeedback | undefined
}) {
  const { topic, me } = props
  const [dialog, setDialog] = useState<'start' | 'conclude' | 'feedback' | null>(null)
  const close = () => setDialog(null)

  const canEdit = checkEditTopic(me, topic).ok
  const canStart = checkStartTopic(me, topic).ok
  const canConclude = checkConcludeTopic(me, topic).ok
  const canGiveFeedback = checkGiveFeedback(me, topic, props.isAcceptedMentee).ok
  if (!canEdit && !canStart && !canConclude && !canGiveFeedback) return null

  return (
    <>
      {canEdit && (
        <LinkButton to={paths.editTopic(topic.id)} variant="secondary">
          <PencilSquareIcon className={icon} aria-hidden="true" />
          Edit Topic
        </LinkButton>
      )}
      {canStart && (
        <Button onClick={() => setDialog('start')}>
          <PlayIcon className={icon} aria-hidden="true" />
          Start Topic
        </Button>
      )}
      {canConclude && (
        <Button variant="success" onClick={() => setDialog('conclude')}>
          <CheckBadgeIcon className={icon} aria-hidden="true" />
          Conclude Topic
        </Button>
      )}
      {canGiveFeedback && (
        <Button onClick={() => setDialog('feedback')}>
          <StarIcon className={icon} aria-hidden="true" />
          {props.myFeedback ? 'Edit Feedback' : 'Add Feedback'}
        </Button>
      )}
      {canStart && <StartDialog topicId={topic.id} open={dialog === 'start'} onClose={close} />}
      <ConcludeDialog topicId={topic.id} open={dialog === 'conclude'} onClose={close} />
      <FeedbackDialog
        topicId={topic.id}
        existing={props.myFeedback}
        open={dialog === 'feedback'}
        onClose={close}
      />
    </>
  )
}
