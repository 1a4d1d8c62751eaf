import { Field, Label } from '@headlessui/react'
import { type ReactNode, useState } from 'react'
import {
  PENDING_APPLICATION_LIMIT_MAX,
  PROGRAMME_LENGTH_MONTHS_MAX,
  type ProgrammeSettings,
  REMINDER_DAYS_MAX,
  REMINDER_STAGE_LABELS,
  REMINDER_STAGES,
  type ReminderSettings,
  updateProgrammeSettingsSchema,
} from '../../../../shared/programme-settings.ts'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardBody } from '../../components/ui/card.tsx'
import { ToggleSwitch } from '../../components/ui/toggle-switch.tsx'
import { useChange } from '../../lib/use-change.ts'
import { useMutations } from '../../sync/engine/react.ts'
import { DaysOrOff, NumberField } from './number-fields.tsx'
import { CONCLUDE_LABEL } from './settings-words.ts'

/** What the form holds: numbers as typed (text), null for Off. */
type Draft = {
  reminders: Record<(typeof REMINDER_STAGES)[number], string | null> & {
    concludeAtProgrammeEnd: boolean
  }
  programmeLengthMonths: string
  pendingApplicationLimit: string | null
}

const toDraft = (s: ProgrammeSettings): Draft => ({
  reminders: {
    ...(Object.fromEntries(
      REMINDER_STAGES.map((stage) => [stage, textOf(s.reminders[stage])]),
    ) as Record<(typeof REMINDER_STAGES)[number], string | null>),
    concludeAtProgrammeEnd: s.reminders.concludeAtProgrammeEnd,
  },
  programmeLengthMonths: String(s.programmeLengthMonths),
  pendingApplicationLimit: textOf(s.pendingApplicationLimit),
})
const textOf = (n: number | null) => (n === null ? null : String(n))
/** '' stays not-a-number, so the schema names it rather than reading 0. */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text))
const numberOrOff = (text: string | null) => (text === null ? null : numberOf(text))

function toSettings(d: Draft) {
  const reminders = {
    ...(Object.fromEntries(
      REMINDER_STAGES.map((stage) => [stage, numberOrOff(d.reminders[stage])]),
    ) as Record<(typeof REMINDER_STAGES)[number], number | null>),
    concludeAtProgrammeEnd: d.reminders.concludeAtProgrammeEnd,
  } satisfies ReminderSettings
  return {
    reminders,
    programmeLengthMonths: numberOf(d.programmeLengthMonths),
    pendingApplicationLimit: numberOrOff(d.pendingApplicationLimit),
  }
}

/** Only what differs from the saved settings: PATCH sends nothing else. */
function changesOf(saved: ProgrammeSettings, next: ReturnType<typeof toSettings>) {
  const out: Partial<ReturnType<typeof toSettings>> = {}
  const remindersChanged =
    REMINDER_STAGES.some((s) => saved.reminders[s] !== next.reminders[s]) ||
    saved.reminders.concludeAtProgrammeEnd !== next.reminders.concludeAtProgrammeEnd
  if (remindersChanged) out.reminders = next.reminders
  if (saved.programmeLengthMonths !== next.programmeLengthMonths) {
    out.programmeLengthMonths = next.programmeLengthMonths
  }
  if (saved.pendingApplicationLimit !== next.pendingApplicationLimit) {
    out.pendingApplicationLimit = next.pendingApplicationLimit
  }
  return out
}

/**
 * Follow-through settings (issue 18): when each reminder goes out (a number
 * of days, or off), the programme's length, and an optional limit on a
 * mentee's pending applications. Saved together with only the changed
 * settings; the schema's messages show beside the fields they are about.
 */
export function ProgrammeRules(props: { saved: ProgrammeSettings }) {
  const mutate = useMutations()
  const change = useChange()
  const [draft, setDraft] = useState<Draft | null>(null)
  const [saving, setSaving] = useState(false)
  const shown = draft ?? toDraft(props.saved)
  const next = toSettings(shown)
  const changes = changesOf(props.saved, next)
  const dirty = Object.keys(changes).length > 0
  const check = updateProgrammeSettingsSchema.safeParse(next)
  const errorAt = (...path: (string | number)[]) =>
    check.success
      ? undefined
      : check.error.issues.find((i) => path.every((p, n) => i.path[n] === p))?.message

  const edit = (fn: (d: Draft) => Draft) => setDraft(fn(shown))
  const setStage = (stage: (typeof REMINDER_STAGES)[number], value: string | null) =>
    edit((d) => ({ ...d, reminders: { ...d.reminders, [stage]: value } }))

  const save = async () => {
    setSaving(true)
    try {
      const outcome = await change(
        () => mutate.saveProgrammeSettings(changes, 'Save the reminders and limits'),
        {
          success: 'Everyone’s devices get the new settings with their next sync.',
          successTitle: 'Programme settings saved',
        },
      )
      if (outcome.kind === 'saved' || outcome.kind === 'waiting') setDraft(null)
    } finally {
      setSaving(false)
    }
  }

  return (
    <Card>
      <CardBody className="space-y-8">
        <section aria-labelledby="reminders-heading" className="space-y-5">
          <Heading id="reminders-heading" text="Reminders">
            Who is reminded of what, and after how many days. Off sends none.
          </Heading>
          <div className="grid gap-x-10 gap-y-6 md:grid-cols-2">
            {REMINDER_STAGES.map((stage) => (
              <DaysOrOff
                key={stage}
                id={`stage-${stage}`}
                label={REMINDER_STAGE_LABELS[stage].label}
                description={REMINDER_STAGE_LABELS[stage].description}
                value={shown.reminders[stage]}
                fallback={String(defaultDays(props.saved, stage))}
                unit="days"
                max={REMINDER_DAYS_MAX}
                error={errorAt('reminders', stage)}
                onChange={(value) => setStage(stage, value)}
              />
            ))}
          </div>
          <Field className="flex items-start justify-between gap-4 md:max-w-[calc(50%-1.25rem)]">
            <Label className="text-sm font-medium text-slate-900 dark:text-white">
              {CONCLUDE_LABEL}
            </Label>
            <ToggleSwitch
              checked={shown.reminders.concludeAtProgrammeEnd}
              onChange={(on) =>
                edit((d) => ({ ...d, reminders: { ...d.reminders, concludeAtProgrammeEnd: on } }))
              }
            />
          </Field>
        </section>

        <div className="grid gap-x-10 gap-y-8 border-t border-slate-200 pt-6 md:grid-cols-2 dark:border-slate-800">
          <section aria-labelledby="length-heading" className="space-y-3">
            <Heading id="length-heading" text="Programme length">
              How long a mentorship runs: after this, its mentor is reminded to conclude it.
            </Heading>
            <NumberField
              id="programme-length"
              label="Months"
              value={shown.programmeLengthMonths}
              max={PROGRAMME_LENGTH_MONTHS_MAX}
              error={errorAt('programmeLengthMonths')}
              onChange={(programmeLengthMonths) => edit((d) => ({ ...d, programmeLengthMonths }))}
              suffix="months"
            />
          </section>

          <section aria-labelledby="pending-heading" className="space-y-3">
            <Heading id="pending-heading" text="Pending applications">
              How many applications a mentee may have waiting for an answer at once.
            </Heading>
            <DaysOrOff
              id="pending-limit"
              label="Limit pending applications"
              description="Off: no limit."
              value={shown.pendingApplicationLimit}
              fallback="3"
              max={PENDING_APPLICATION_LIMIT_MAX}
              error={errorAt('pendingApplicationLimit')}
              onChange={(pendingApplicationLimit) =>
                edit((d) => ({ ...d, pendingApplicationLimit }))
              }
              prefix="At most"
              unit="pending applications per mentee"
            />
          </section>
        </div>

        <div className="flex flex-wrap gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
          <Button onClick={save} busy={saving} disabled={!dirty || !check.success}>
            Save reminders and limits
          </Button>
          {dirty && (
            <Button variant="ghost" onClick={() => setDraft(null)}>
              Discard changes
            </Button>
          )}
        </div>
      </CardBody>
    </Card>
  )
}

const defaultDays = (saved: ProgrammeSettings, stage: (typeof REMINDER_STAGES)[number]) =>
  saved.reminders[stage] ?? 7

function Heading(props: { id: string; text: string; children: ReactNode }) {
  return (
    <div>
      <h2 id={props.id} className="text-base font-semibold text-slate-900 dark:text-white">
        {props.text}
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{props.children}</p>
    </div>
  )
}
