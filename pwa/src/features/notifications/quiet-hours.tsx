import { Field, Label } from '@headlessui/react'
import { MoonIcon } from '@heroicons/react/24/outline'
import { useState } from 'react'
import { preferencesSchema, type QuietHours } from '../../../../shared/preferences.ts'
import { Card } from '../../components/ui/card.tsx'
import { ToggleSwitch } from '../../components/ui/toggle-switch.tsx'
import type { ChangeResult } from '../../lib/use-change.ts'
import type { PreferencesChange } from '../../sync/mutators/users.ts'
import { SectionHeading } from './delivery-settings.tsx'
import { HourSelect } from './hour-select.tsx'
import { PreferenceSwitch } from './preference-switch.tsx'

const valid = (q: QuietHours) => preferencesSchema.shape.quietHours.safeParse(q)
const sameHours = (a: QuietHours, b: QuietHours) =>
  a.enabled === b.enabled && a.from === b.from && a.to === b.to && a.weekends === b.weekends

const QUIET_HOURS_TEXT = 'Nothing is pushed or e-mailed in quiet hours; it waits for the morning.'

/**
 * Quiet hours (issue 18): on or off, from and to (local hours), weekends
 * too. A combination the schema refuses (from = to) shows its message and
 * saves nothing until it is put right.
 */
export function QuietHoursSettings(props: {
  quietHours: QuietHours
  save: (change: PreferencesChange) => Promise<ChangeResult>
}) {
  // What the person chose last, shown until the synced preferences hold it
  // (so a quick second change builds on the first), or until the save is
  // refused. A combination the schema refuses stays until it is put right.
  const [draft, setDraft] = useState<QuietHours | null>(null)
  const saved = props.quietHours
  if (draft && sameHours(draft, saved)) setDraft(null)
  const shown = draft ?? saved
  const check = valid(shown)
  const error = check.success ? null : (check.error.issues[0]?.message ?? 'Invalid quiet hours')

  const update = (change: Partial<QuietHours>) => {
    const next = { ...shown, ...change }
    setDraft(next)
    if (!valid(next).success) return
    void props.save({ quietHours: next }).then((result) => {
      if (result.kind === 'refused' || result.kind === 'refused-now') {
        setDraft((current) => (current === next ? null : current))
      }
    })
  }

  return (
    <Card>
      <SectionHeading icon={MoonIcon} id="quiet-heading">
        Quiet hours
      </SectionHeading>
      <PreferenceSwitch
        label="Quiet hours"
        description={QUIET_HOURS_TEXT}
        checked={shown.enabled}
        onChange={(enabled) => update({ enabled })}
      />
      <div className="grid grid-cols-2 gap-x-4 gap-y-1.5 border-t border-slate-200 px-5 pt-4 pb-2 sm:px-6 dark:border-slate-800">
        <HourSelect
          label="From"
          value={shown.from}
          disabled={!shown.enabled}
          onChange={(from) => update({ from })}
        />
        <HourSelect
          label="To"
          value={shown.to}
          disabled={!shown.enabled}
          invalid={error !== null}
          describedBy={error ? 'quiet-hours-error' : undefined}
          onChange={(to) => update({ to })}
        />
        {/* The message has its line held, so it appearing does not move what follows. */}
        <p
          id="quiet-hours-error"
          role="alert"
          className="col-span-2 min-h-5 text-sm font-medium text-red-600 dark:text-red-400"
        >
          {error}
        </p>
      </div>
      <Field
        disabled={!shown.enabled}
        className="flex items-center justify-between gap-4 border-t border-slate-200 px-5 py-4 sm:px-6 dark:border-slate-800"
      >
        <Label className="text-sm font-medium text-slate-900 data-disabled:opacity-70 dark:text-white">
          Weekends too (all Saturday and Sunday)
        </Label>
        <ToggleSwitch checked={shown.weekends} onChange={(weekends) => update({ weekends })} />
      </Field>
    </Card>
  )
}
