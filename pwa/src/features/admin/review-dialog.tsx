import { Field, Label, Textarea } from '@headlessui/react'
import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { Modal, ModalActions } from '../../components/ui/dialog.tsx'
import { controlClasses } from '../../components/ui/field.tsx'
import { useChange } from '../../lib/use-change.ts'
import type { SyncTopic } from '../../sync/engine/db.ts'
import { useMutations } from '../../sync/engine/react.ts'
import { type Decision, DecisionPicker } from './decision-picker.tsx'

/**
 * The Review Topic dialog: approve or reject a proposed topic; the rejection
 * reason field shows only when rejecting (the reason is optional, spec section 5).
 */
export function ReviewDialog(props: { topic: SyncTopic | null; onClose: () => void }) {
  const { topic } = props
  const change = useChange()
  const mutate = useMutations()
  const [decision, setDecision] = useState<Decision>('approved')
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)

  // Each topic's review starts afresh.
  useEffect(() => {
    if (topic) {
      setDecision('approved')
      setReason('')
    }
  }, [topic])

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!topic || busy) return
    setBusy(true)
    try {
      const rejectionReason = decision === 'rejected' ? reason.trim() || null : null
      const result = await change(
        () => mutate.reviewTopic(topic.id, { status: decision, rejectionReason }),
        { success: `Topic ${decision} successfully` },
      )
      if (result.kind !== 'refused-now') props.onClose()
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal
      open={topic !== null}
      onClose={busy ? () => {} : props.onClose}
      title="Review Topic"
      description={topic ? `Decide whether “${topic.subject}” is offered in the programme.` : ''}
    >
      <form onSubmit={submit} className="space-y-5">
        <DecisionPicker value={decision} onChange={setDecision} />
        {decision === 'rejected' && (
          <Field className="space-y-1.5">
            <Label className="block text-sm font-medium text-slate-800 dark:text-slate-200">
              Rejection reason
            </Label>
            <Textarea
              value={reason}
              onChange={(event: ChangeEvent<HTMLTextAreaElement>) => setReason(event.target.value)}
              placeholder="Tell the mentor why the topic is not accepted (optional)"
              rows={3}
              className={`${controlClasses} min-h-24`}
            />
          </Field>
        )}
        <ModalActions>
          <Button variant="secondary" onClick={props.onClose} disabled={busy}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant={decision === 'rejected' ? 'danger' : 'primary'}
            busy={busy}
          >
            {decision === 'rejected' ? 'Reject Topic' : 'Approve Topic'}
          </Button>
        </ModalActions>
      </form>
    </Modal>
  )
}
