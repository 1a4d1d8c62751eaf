import { CheckBadgeIcon, PencilSquareIcon, PlayIcon, StarIcon } from '@heroicons/react/20/solid'
import { useState } from 'react'
import { checkGiveFeedback } from '../../../../shared/feedback.ts'
import { checkConcludeTopic, checkEditTopic, checkStartTopic } from '../../../../shared/topic.ts'
import type { User } from '../../../../shared/user.ts'
import { Button, LinkButton } from '../../components/ui/button.tsx'
import { paths } from '../../lib/paths.ts'
import { useChange } from '../../lib/use-change.ts'
import type { SyncFeedback, SyncTopic } from '../../sync/engine/db.ts'
import { useMutations } from '../../sync/engine/react.ts'
import { ConcludeDialog } from './conclude-dialog.tsx'
import { FeedbackDialog } from './feedback-dialog.tsx'

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
  const mutate = useMutations()
  const change = useChange()
  const [starting, setStarting] = useState(false)
  const [dialog, setDialog] = useState<'conclude' | 'feedback' | null>(null)
  const close = () => setDialog(null)

  const canEdit = checkEditTopic(me, topic).ok
  const canStart = checkStartTopic(me, topic).ok
  const canConclude = checkConcludeTopic(me, topic).ok
  const canGiveFeedback = checkGiveFeedback(me, topic, props.isAcceptedMentee).ok
  if (!canEdit && !canStart && !canConclude && !canGiveFeedback) return null

  async function start() {
    setStarting(true)
    try {
      await change(() => mutate.startTopic(topic.id), { success: 'Topic started successfully' })
    } finally {
      setStarting(false)
    }
  }

  return (
    <>
      {canEdit && (
        <LinkButton to={paths.editTopic(topic.id)} variant="secondary">
          <PencilSquareIcon className={icon} aria-hidden="true" />
          Edit Topic
        </LinkButton>
      )}
      {canStart && (
        <Button busy={starting} onClick={() => void start()}>
          {!starting && <PlayIcon className={icon} aria-hidden="true" />}
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
