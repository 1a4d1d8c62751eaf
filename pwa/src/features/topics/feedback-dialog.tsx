import { type FormEvent, useState } from 'react'
import { RATING_DEFAULT } from '../../../../shared/constants.ts'
import { Button } from '../../components/ui/button.tsx'
import { Modal, ModalActions } from '../../components/ui/dialog.tsx'
import { Field, Textarea } from '../../components/ui/field.tsx'
import { useChange } from '../../lib/use-change.ts'
import { useMutations } from '../../sync/engine/react.ts'
import { StarInput } from './star-rating.tsx'

/**
 * Add or edit the user's own feedback on a concluded topic: a text and 1–5
 * stars (default 5). Submit stays disabled while the text is blank.
 */
export function FeedbackDialog(props: {
  topicId: string
  existing: { feedback: string; rating: number } | undefined
  open: boolean
  onClose: () => void
}) {
  return (
    <Modal
      open={props.open}
      onClose={props.onClose}
      title={props.existing ? 'Edit Feedback' : 'Add Feedback'}
      description="How was this mentorship? Your feedback shows on the topic."
    >
      {/* Mounted per opening, so it starts from the saved feedback each time. */}
      {props.open && <FeedbackForm {...props} />}
    </Modal>
  )
}

function FeedbackForm(props: Parameters<typeof FeedbackDialog>[0]) {
  const mutate = useMutations()
  const change = useChange()
  const [text, setText] = useState(props.existing?.feedback ?? '')
  const [rating, setRating] = useState(props.existing?.rating ?? RATING_DEFAULT)
  const [busy, setBusy] = useState(false)
  const blank = text.trim() === ''

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (blank) return
    setBusy(true)
    try {
      const result = await change(
        () => mutate.giveFeedback(props.topicId, { feedback: text.trim(), rating }),
        { success: 'Feedback submitted successfully' },
      )
      if (result.kind !== 'refused' && result.kind !== 'refused-now') props.onClose()
    } finally {
      setBusy(false)
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-5">
      <Field label="Your feedback">
        <Textarea
          autoFocus
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="What went well? What could be better?"
          rows={4}
        />
      </Field>
      <StarInput value={rating} onChange={setRating} />
      <ModalActions>
        <Button variant="secondary" onClick={props.onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={blank} busy={busy}>
          Submit Feedback
        </Button>
      </ModalActions>
    </form>
  )
}
