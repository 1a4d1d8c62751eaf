import { type ReactNode, useEffect, useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { TopicLink } from '../../components/topic/topic-link.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Modal, ModalActions } from '../../components/ui/dialog.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import type { SyncApplication } from '../../sync/engine/db.ts'
import type { Merged } from '../../sync/engine/overlay.ts'
import { useSyncedRow, useSyncStatus } from '../../sync/engine/react.ts'
import { ApplicationRow } from './application-row.tsx'
import { ApplicationStatusBadge } from './application-status-badge.tsx'
import { RejectDialog } from './reject-dialog.tsx'

const ALREADY_ANSWERED = 'This application was already answered.'

/**
 * The actionable reminder (issue 18): /dashboard?application=<id> opens the
 * application with Accept and Reject at hand, from IndexedDB (offline too),
 * through the same row, mutators and reject dialog as the topic card. An
 * application that was no longer pending when it opened says so.
 */
export function AnswerDialog() {
  const [params, setParams] = useSearchParams()
  const id = params.get('application')
  const close = () => {
    const next = new URLSearchParams(params)
    next.delete('application')
    setParams(next, { replace: true })
  }
  return (
    <Modal open={id !== null} onClose={close} title="Answer an application">
      {id !== null && <AnswerBody id={id} onClose={close} />}
    </Modal>
  )
}

function AnswerBody(props: { id: string; onClose: () => void }) {
  const application = useSyncedRow('applications', props.id)
  const topic = useSyncedRow('topics', application?.topicId)
  const { lastSyncedAt } = useSyncStatus()
  const [rejecting, setRejecting] = useState<Merged<SyncApplication> | null>(null)
  // Whether it was pending when the dialog opened: a decision made here is shown as made.
  const [openedPending, setOpenedPending] = useState<boolean | null>(null)
  const status = application?.status
  useEffect(() => {
    if (status !== undefined) setOpenedPending((was) => was ?? status === 'pending')
  }, [status])

  const waiting = application === undefined || (application && topic === undefined)
  let body: ReactNode
  if (waiting || (application === null && lastSyncedAt === null)) {
    body = (
      <div className="flex h-24 items-center justify-center">
        <Spinner />
      </div>
    )
  } else if (!application || !topic) {
    body = (
      <p className="text-sm text-slate-700 dark:text-slate-300">
        This application is not one of yours, or it no longer exists.
      </p>
    )
  } else {
    body = (
      <div className="space-y-3">
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Topic: <TopicLink topic={topic} />
        </p>
        {openedPending === false ? (
          <div className="flex flex-wrap items-center gap-2" role="status">
            <p className="text-sm font-medium text-slate-900 dark:text-white">{ALREADY_ANSWERED}</p>
            <ApplicationStatusBadge status={application.status} />
          </div>
        ) : (
          <ul className="rounded-lg border border-slate-200 px-4 dark:border-slate-800">
            <ApplicationRow
              application={application}
              topic={topic}
              onReject={() => setRejecting(application)}
            />
          </ul>
        )}
        <RejectDialog
          application={rejecting}
          subject={topic.subject}
          onClose={() => setRejecting(null)}
        />
      </div>
    )
  }
  return (
    <>
      {body}
      <ModalActions>
        <Button variant="secondary" onClick={props.onClose}>
          Close
        </Button>
      </ModalActions>
    </>
  )
}
