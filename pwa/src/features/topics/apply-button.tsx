import { useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { useChange } from '../../lib/use-change.ts'
import { useMutations } from '../../sync/engine/react.ts'

/**
 * Apply to a topic: "Applying..." and disabled while the change is queued and
 * answered. The caller shows it only when the apply rules allow it.
 */
export function ApplyButton(props: { topicId: string; subject: string; className?: string }) {
  const mutate = useMutations()
  const change = useChange()
  const [busy, setBusy] = useState(false)

  async function apply() {
    setBusy(true)
    try {
      await change(() => mutate.applyToTopic(props.topicId), {
        success: 'Application submitted successfully',
        waiting: {
          title: 'Application saved on this device',
          description:
            "It will be sent when you're back online. The topic may fill up before then.",
        },
      })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Button
      busy={busy}
      onClick={() => void apply()}
      className={props.className}
      aria-label={busy ? undefined : `Apply to ${props.subject}`}
    >
      {busy ? 'Applying...' : 'Apply'}
    </Button>
  )
}
