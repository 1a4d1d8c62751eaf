import { Textarea } from '@headlessui/react'
import { type ChangeEvent, type FormEvent, useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { Modal, ModalActions } from '../../components/ui/dialog.tsx'
import { controlClasses } from '../../components/ui/field.tsx'
import { useChange } from '../../lib/use-change.ts'
import type { SyncApplication } from '../../sync/engine/db.ts'
import { useMutations } from '../../sync/engine/react.ts'

/**
 * The spec's "Reject Application" dialog: a reason is required (blank or
 * whitespace keeps Confirm Rejection disabled) and is sent trimmed; after the
 * decision the dialog closes and the reason is cleared.
 */
export function RejectDialog(props: {
  application: SyncApplication | null
  subject: string
  onClose: () => void
}) {
  const { application } = props
  const change = useChange()
  const mutate = useMutations()
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const trimmed = reason.trim()

  const close = () => {
    setReason('')
    props.onClose()
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!application || !trimmed || busy) return
    setBusy(true)
    try {
      const result = await change(() => mutate.rejectApplication(application.id, trimmed), {
        success: 'Application rejected successfully',
      })
      // Refused by the rules before queueing: keep the dialog so the reason is not lost.
      if (result.kind !== 'refused-now') close()
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal
      open={application !== null}
      onClose={busy ? () => {} : close}
      title="Reject Application"
      description="Please provide a reason for rejecting this application. This will be visible to the mentee."
    >
      <form onSubmit={submit} className="space-y-2">
        {application && (
          <p className="text-sm text-slate-700 dark:text-slate-300">
            <span className="font-medium">{application.mentee.username}</span>
            <span className="text-slate-500 dark:text-slate-400"> applied to </span>
            <span className="font-medium">{props.subject}</span>
          </p>
        )}
        <Textarea
          autoFocus
          aria-label="Rejection reason"
          placeholder="Enter rejection reason..."
          value={reason}
          onChange={(event: ChangeEvent<HTMLTextAreaElement>) => setReason(event.target.value)}
          rows={4}
          className={`${controlClasses} min-h-28`}
        />
        <ModalActions>
          <Button variant="secondary" onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={!trimmed} busy={busy}>
            Confirm Rejection
          </Button>
        </ModalActions>
      </form>
    </Modal>
  )
}
