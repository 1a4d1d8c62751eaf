import { useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { LinkButton } from '../../components/ui/button.tsx'
import { PageHeader } from '../../components/ui/page.tsx'
import { paths } from '../../lib/paths.ts'
import { useChange } from '../../lib/use-change.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { useMutations } from '../../sync/engine/react.ts'
import { EMPTY_TOPIC } from './form-values.ts'
import { TopicForm } from './topic-form.tsx'

/**
 * Create topic (/create, spec section 2): "Create Topic", "Creating..." while
 * the server is asked; on success (or once saved on this device while
 * offline) the user goes to "/".
 */
export default function CreateTopic() {
  useDocumentTitle('Create Topic')
  const mutate = useMutations()
  const change = useChange()
  const navigate = useNavigate()
  const [busy, setBusy] = useState(false)

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title="Create Topic"
        description="Propose a topic you would like to mentor. An administrator reviews it before it is listed."
      />
      <TopicForm
        initial={EMPTY_TOPIC}
        submitLabel="Create Topic"
        busyLabel="Creating..."
        busy={busy}
        secondary={
          <LinkButton to={paths.topics} variant="ghost">
            Cancel
          </LinkButton>
        }
        onSubmit={async (input) => {
          setBusy(true)
          const outcome = await change(() => mutate.createTopic(input), {
            success: 'Topic created successfully',
          })
          if (outcome.kind === 'saved' || outcome.kind === 'waiting') navigate(paths.home)
          else setBusy(false)
        }}
      />
    </div>
  )
}
