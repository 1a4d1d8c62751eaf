import { useState } from 'react'
import { Navigate, useNavigate, useParams } from 'react-router-dom'
import { checkEditTopic } from '../../../../shared/topic.ts'
import { LinkButton } from '../../components/ui/button.tsx'
import { MessageCard, PageHeader } from '../../components/ui/page.tsx'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { paths } from '../../lib/paths.ts'
import { useChange } from '../../lib/use-change.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { useMutations, useSyncedRow, useSyncStatus } from '../../sync/engine/react.ts'
import { valuesOfTopic } from './form-values.ts'
import { TopicForm } from './topic-form.tsx'

/**
 * Topic edit (/topics/{id}/edit, spec section 2): the creation form,
 * prefilled. Save Changes and Cancel return to the topic. Someone who is
 * neither its mentor nor an admin goes to "/"; a started or concluded topic
 * explains that it can no longer be edited (shared checkEditTopic).
 */
export default function EditTopic() {
  const { id = '' } = useParams()
  const topic = useSyncedRow('topics', id)
  const { lastSyncedAt } = useSyncStatus()
  const user = useCurrentUser()
  const mutate = useMutations()
  const change = useChange()
  const navigate = useNavigate()
  const [busy, setBusy] = useState(false)
  useDocumentTitle(topic ? `Edit ${topic.subject}` : 'Edit Topic')

  if (topic === undefined || (topic === null && lastSyncedAt === null)) return <PageSpinner />
  if (topic === null) {
    return (
      <MessageCard
        title="Topic not found"
        actions={
          <LinkButton to={paths.topics} variant="secondary">
            Browse Topics
          </LinkButton>
        }
      >
        It may have been removed, or it is not visible to you.
      </MessageCard>
    )
  }

  const decision = checkEditTopic({ id: user.id, isAdmin: user.isAdmin }, topic)
  // While a save is under way the topic may change under us; the decision was made before it.
  if (!decision.ok && !busy) {
    if (decision.status === 403) return <Navigate to={paths.home} replace />
    return (
      <MessageCard
        title="This topic can no longer be edited"
        actions={
          <LinkButton to={paths.topic(topic.id)} variant="secondary">
            Back to Topic
          </LinkButton>
        }
      >
        {decision.reason}
      </MessageCard>
    )
  }

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title="Edit Topic"
        description={
          topic.status === 'rejected'
            ? 'Saving your changes sends this topic back to an administrator for review.'
            : 'Update the details of your topic.'
        }
      />
      <TopicForm
        key={topic.id}
        initial={valuesOfTopic(topic)}
        submitLabel="Save Changes"
        busyLabel="Saving..."
        busy={busy}
        secondary={
          <LinkButton to={paths.topic(topic.id)} variant="ghost">
            Cancel
          </LinkButton>
        }
        onSubmit={async (input) => {
          setBusy(true)
          const outcome = await change(() => mutate.editTopic(topic.id, input), {
            success: 'Topic updated successfully',
          })
          if (outcome.kind === 'saved' || outcome.kind === 'waiting') {
            navigate(paths.topic(topic.id))
          } else setBusy(false)
        }}
      />
    </div>
  )
}
