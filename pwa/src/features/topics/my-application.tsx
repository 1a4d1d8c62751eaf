import { EnvelopeOpenIcon } from '@heroicons/react/20/solid'
import { useState } from 'react'
import type { User } from '../../../../shared/user.ts'
import { applyOffer, usePendingLimit } from '../../components/topic/apply-rule.ts'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardBody } from '../../components/ui/card.tsx'
import { useChange } from '../../lib/use-change.ts'
import type { SyncApplication, SyncInvitation, SyncTopic } from '../../sync/engine/db.ts'
import type { Merged } from '../../sync/engine/overlay.ts'
import { useMutations } from '../../sync/engine/react.ts'
import { ApplicationState } from './application-state.tsx'
import { ApplyButton } from './apply-button.tsx'

/**
 * A mentee's view of their own application on the detail page: its status
 * (and reason), or the Apply button when the rules allow applying (under
 * the programme's pending limit, the sentence saying why not instead). A mentor's
 * open invitation (issue 17) is shown with it, and can be declined.
 */
export function MyApplication(props: {
  topic: SyncTopic
  me: User
  application: Merged<SyncApplication> | undefined
  invitation?: Merged<SyncInvitation> | undefined
}) {
  const { topic, me, application, invitation } = props
  const offer = applyOffer(me, topic, application !== undefined, usePendingLimit())
  if (!application && offer.kind === 'none') return null
  const invited = !application && invitation?.status === 'open'
  const mentorName = topic.mentor.full_name || topic.mentor.username
  return (
    <Card className={invited ? 'ring-2 ring-brand-500/60' : undefined}>
      <CardBody className="space-y-3">
        <h2 className="flex items-center gap-2 text-base font-semibold text-slate-900 dark:text-white">
          {invited && (
            <EnvelopeOpenIcon className="size-5 text-brand-600 dark:text-brand-400" aria-hidden />
          )}
          {application ? 'Your application' : invited ? 'You are invited' : 'Interested?'}
        </h2>
        {application ? (
          <ApplicationState application={application} />
        ) : (
          <>
            {/* Under the pending limit the limit's sentence says it all. */}
            <p
              className={
                offer.kind === 'limited' ? 'hidden' : 'text-sm text-slate-600 dark:text-slate-400'
              }
            >
              {invited
                ? `${mentorName} invited you to apply: your profile fits this topic. Apply and they will review your application.`
                : invitation?.status === 'declined'
                  ? 'You declined the invitation to this topic. You can still apply.'
                  : 'Apply and the mentor will review your application.'}
            </p>
            {offer.kind === 'limited' ? (
              <p
                className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950/50 dark:text-amber-200"
                data-testid="apply-limit"
              >
                {offer.message}
              </p>
            ) : (
              <ApplyButton topicId={topic.id} subject={topic.subject} className="w-full" />
            )}
            {invited && invitation && <DeclineButton invitation={invitation} />}
          </>
        )}
      </CardBody>
    </Card>
  )
}

function DeclineButton(props: { invitation: Merged<SyncInvitation> }) {
  const mutate = useMutations()
  const change = useChange()
  const [busy, setBusy] = useState(false)
  const decline = async () => {
    setBusy(true)
    try {
      await change(() => mutate.declineInvitation(props.invitation.id), {
        success: 'The mentor will see that you declined. You can still apply later.',
        successTitle: 'Invitation declined',
      })
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button variant="secondary" className="w-full" onClick={decline} busy={busy}>
      Decline invitation
    </Button>
  )
}
