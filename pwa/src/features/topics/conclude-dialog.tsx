import { type FormEvent, useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { Modal, ModalActions } from '../../components/ui/dialog.tsx'
import { Field, Textarea } from '../../components/ui/field.tsx'
import { useChange } from '../../lib/use-change.ts'
import { useMutations } from '../../sync/engine/react.ts'

/**
 * Conclude Topic: asks the mentor (or an admin) for the mentor feedback;
 * the submit button stays disabled while it is blank after trimming.
 */
export function ConcludeDialog(props: { topicId: string; open: boolean; onClose: () => void }) {
  const mutate = useMutations()
  const change = useChange()
  const [feedback, setFeedback] = useState('')
  const [busy, setBusy] = useState(false)
  const blank = feedback.trim() === ''

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (blank) return
    setBusy(true)
    try {
      const result = await change(
        () => mutate.concludeTopic(props.topicId, { mentorFeedback: feedback.trim() }),
        { success: 'Topic concluded successfully' },
      )
      if (result.kind !== 'refused' && result.kind !== 'refused-now') {
        setFeedback('')
        props.onClose()
      }
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal
      open={props.open}
      onClose={props.onClose}
      title="Conclude Topic"
      description="Share how the mentorship went. Your feedback shows on the topic for everyone who can see it, and participants can then rate it."
    >
      <form onSubmit={(e) => void submit(e)}>
        <Field label="Mentor feedback">
          <Textarea
            autoFocus
            value={feedback}
            onChange={(e) => setFeedback(e.target.value)}
            placeholder="What did you work on, and how did it go?"
            rows={5}
          />
        </Field>
        <ModalActions>
          <Button variant="secondary" onClick={props.onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={blank} busy={busy}>
            Conclude Topic
          </Button>
        </ModalActions>
      </form>
    </Modal>
  )
}
