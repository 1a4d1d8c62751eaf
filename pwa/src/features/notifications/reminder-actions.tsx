import { CheckIcon, ClockIcon } from '@heroicons/react/20/solid'
import { type ReactNode, useState } from 'react'
import {
  CHECK_IN_RESPONSE_LABELS,
  CHECK_IN_RESPONSES,
  type CheckInResponse,
  isSnoozable,
} from '../../../../shared/notification.ts'
import { Button } from '../../components/ui/button.tsx'
import { useChange } from '../../lib/use-change.ts'
import type { SyncNotification } from '../../sync/engine/db.ts'
import { useMutations } from '../../sync/engine/react.ts'

/**
 * What a reminder in the bell lets a person do (issue 18): put it off until
 * tomorrow (once), or answer a check-in. Both are queued like every change,
 * so they work offline; afterwards the row says what was done. Fields a
 * cached row from before issue 18 lacks count as null.
 */
export function ReminderActions(props: { notification: SyncNotification; now?: number }) {
  const n = props.notification
  const snoozedUntil = n.snoozedUntil ?? null
  const response = n.response ?? null
  if (n.kind === 'check_in') {
    return response ? (
      <Done icon="check">Your answer: {CHECK_IN_RESPONSE_LABELS[response]}</Done>
    ) : (
      <CheckInButtons notification={n} />
    )
  }
  if (!isSnoozable(n.kind)) return null
  if (snoozedUntil === null) return <SnoozeButton notification={n} />
  // Once the day has passed the reminder came again: nothing more to offer.
  return Date.parse(snoozedUntil) > (props.now ?? Date.now()) ? (
    <Done icon="clock">Reminding you tomorrow</Done>
  ) : null
}

function Done(props: { icon: 'check' | 'clock'; children: ReactNode }) {
  const Icon = props.icon === 'check' ? CheckIcon : ClockIcon
  return (
    <p className="mt-2 flex items-center gap-1.5 text-xs font-medium text-slate-600 dark:text-slate-300">
      <Icon className="size-4 text-brand-600 dark:text-brand-400" aria-hidden="true" />
      {props.children}
    </p>
  )
}

function SnoozeButton(props: { notification: SyncNotification }) {
  const mutate = useMutations()
  const change = useChange()
  const [busy, setBusy] = useState(false)
  const snooze = async () => {
    setBusy(true)
    try {
      await change(() => mutate.snoozeNotification(props.notification.id), {
        success: 'We will remind you again tomorrow.',
        successTitle: 'Reminder put off',
      })
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button variant="secondary" size="sm" className="mt-2" onClick={snooze} busy={busy}>
      <ClockIcon className="size-4" aria-hidden="true" />
      Remind me tomorrow
    </Button>
  )
}

function CheckInButtons(props: { notification: SyncNotification }) {
  const mutate = useMutations()
  const change = useChange()
  const [busy, setBusy] = useState<CheckInResponse | null>(null)
  const answer = async (response: CheckInResponse) => {
    setBusy(response)
    try {
      await change(() => mutate.answerCheckIn(props.notification.id, response), {
        success:
          response === 'need_help'
            ? 'The programme team will see that you could use some help.'
            : 'Thanks for letting us know.',
        successTitle: 'Answer sent',
      })
    } finally {
      setBusy(null)
    }
  }
  return (
    <div className="mt-2 flex flex-wrap gap-2">
      {CHECK_IN_RESPONSES.map((response) => (
        <Button
          key={response}
          variant="secondary"
          size="sm"
          busy={busy === response}
          disabled={busy !== null && busy !== response}
          onClick={() => void answer(response)}
        >
          {CHECK_IN_RESPONSE_LABELS[response]}
        </Button>
      ))}
    </div>
  )
}
