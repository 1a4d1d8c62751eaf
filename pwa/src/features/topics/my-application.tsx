import { canApply } from '../../../../shared/application.ts'
import type { User } from '../../../../shared/user.ts'
import { Card, CardBody } from '../../components/ui/card.tsx'
import type { SyncApplication, SyncTopic } from '../../sync/engine/db.ts'
import type { Merged } from '../../sync/engine/overlay.ts'
import { ApplicationState } from './application-state.tsx'
import { ApplyButton } from './apply-button.tsx'

/**
 * A mentee's view of their own application on the detail page: its status
 * (and reason), or the Apply button when the rules allow applying.
 */
export function MyApplication(props: {
  topic: SyncTopic
  me: User
  application: Merged<SyncApplication> | undefined
}) {
  const { topic, me, application } = props
  const applyAllowed = canApply(me, topic, application !== undefined)
  if (!application && !applyAllowed) return null
  return (
    <Card>
      <CardBody className="space-y-3">
        <h2 className="text-base font-semibold text-slate-900 dark:text-white">
          {application ? 'Your application' : 'Interested?'}
        </h2>
        {application ? (
          <ApplicationState application={application} />
        ) : (
          <>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Apply and the mentor will review your application.
            </p>
            <ApplyButton topicId={topic.id} subject={topic.subject} className="w-full" />
          </>
        )}
      </CardBody>
    </Card>
  )
}
