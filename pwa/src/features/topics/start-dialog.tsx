import { useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { Modal, ModalActions } from '../../components/ui/dialog.tsx'
import { useChange } from '../../lib/use-change.ts'
import { useMutations, useSynced } from '../../sync/engine/react.ts'
import { readApplicationsOfTopic } from '../../sync/engine/view.ts'

/**
 * Start Topic, confirmed: starting cannot be undone, closes the topic to new
 * applications and closes the pending ones (their mentees are told), so the
 * mentor sees how many before deciding.
 */
export function StartDialog(props: { topicId: string; open: boolean; onClose: () => void }) {
  const mutate = useMutations()
  const change = useChange()
  const [busy, setBusy] = useState(false)
  const applications = useSynced(
    (db) => readApplicationsOfTopic(db, props.topicId),
    [props.topicId],
  )
  const pending = applications?.filter((a) => a.status === 'pending').length ?? 0

  async function start() {
    setBusy(true)
    try {
      const result = await change(() => mutate.startTopic(props.topicId), {
        success: 'Topic started successfully',
      })
      if (result.kind !== 'refused' && result.kind !== 'refused-now') props.onClose()
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal
      open={props.open}
      onClose={props.onClose}
      title="Start this topic?"
      description={
        <>
          Starting the topic begins the mentorship with the accepted mentees and closes the topic to
          new applications. It cannot be undone.
        </>
      }
    >
      <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="start-pending">
        {pending === 0
          ? 'There are no pending applications.'
          : `${pending === 1 ? 'One pending application' : `${pending} pending applications`} will be closed, and ${pending === 1 ? 'that mentee is' : 'those mentees are'} told.`}
      </p>
      <ModalActions>
        <Button variant="secondary" onClick={props.onClose}>
          Cancel
        </Button>
        <Button busy={busy} onClick={() => void start()} data-autofocus>
          Start Topic
        </Button>
      </ModalActions>
    </Modal>
  )
}
