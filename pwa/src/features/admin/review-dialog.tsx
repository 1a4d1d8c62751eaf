import { Field, Label, Textarea } from '@headlessui/react'
import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react'
import { SENIORITY_LABELS, SENIORITY_LEVELS } from '../../../../shared/constants.ts'
import { LocationLabel } from '../../components/topic/location-label.tsx'
import { RichText } from '../../components/topic/rich-text.tsx'
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
        {topic && <TopicUnderReview topic={topic} />}
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

/** What the administrator decides on: who proposes it, for whom, where, how many, and what. */
function TopicUnderReview(props: { topic: SyncTopic }) {
  const { topic } = props
  const levels = SENIORITY_LEVELS.filter((l) => topic.seniorityRequired.includes(l))
  return (
    <section
      aria-label="The proposed topic"
      className="space-y-3 rounded-lg bg-slate-50 p-4 text-sm ring-1 ring-slate-200 dark:bg-slate-950 dark:ring-slate-800"
    >
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5">
        <dt className="text-slate-500 dark:text-slate-400">Mentor</dt>
        <dd className="font-medium text-slate-900 dark:text-white">
          {topic.mentor.full_name || topic.mentor.username}
        </dd>
        <dt className="text-slate-500 dark:text-slate-400">Seniority</dt>
        <dd className="text-slate-900 dark:text-white">
          {levels.map((l) => SENIORITY_LABELS[l]).join(', ')}
        </dd>
        <dt className="text-slate-500 dark:text-slate-400">Location</dt>
        <dd>
          <LocationLabel location={topic.location} />
        </dd>
        <dt className="text-slate-500 dark:text-slate-400">Capacity</dt>
        <dd className="text-slate-900 dark:text-white">
          {topic.maxMentees === 1 ? '1 mentee' : `${topic.maxMentees} mentees`}
        </dd>
      </dl>
      <div className="max-h-44 overflow-y-auto border-t border-slate-200 pt-3 dark:border-slate-800">
        {topic.description.trim() ? (
          <RichText html={topic.description} className="text-sm" />
        ) : (
          <p className="text-slate-500 dark:text-slate-400">No description given.</p>
        )}
      </div>
    </section>
  )
}
