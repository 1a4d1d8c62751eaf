import { Field, Label } from '@headlessui/react'
import { useState } from 'react'
import {
  monthEnd,
  PERIOD_PRESETS,
  type Period,
  type PeriodPreset,
  PRESET_LABELS,
  periodQuerySchema,
  presetPeriod,
} from '../../../../shared/insights-period.ts'
import { Button } from '../../components/ui/button.tsx'
import { controlClasses } from '../../components/ui/field.tsx'
import { Select } from '../../components/ui/select.tsx'

export type PeriodChoice = { preset: PeriodPreset | 'custom'; period: Period }

const OPTIONS = [
  ...PERIOD_PRESETS.map((p) => ({ value: p, label: PRESET_LABELS[p] })),
  { value: 'custom' as const, label: 'Custom range' },
]

/** A preset period, or a custom range of whole months (the API's periods are whole months). */
export function PeriodPicker(props: {
  value: PeriodChoice
  onChange: (choice: PeriodChoice) => void
}) {
  const [from, setFrom] = useState(props.value.period.from.slice(0, 7))
  const [to, setTo] = useState(props.value.period.to.slice(0, 7))
  const [error, setError] = useState<string | null>(null)
  const custom = props.value.preset === 'custom'

  const applyCustom = () => {
    const period = { from: `${from}-01`, to: monthEnd(new Date(`${to}-01T00:00:00Z`)) }
    const result = periodQuerySchema.safeParse(period)
    if (!/^\d{4}-\d{2}$/.test(from) || !/^\d{4}-\d{2}$/.test(to) || !result.success) {
      setError(result.error?.issues[0]?.message ?? 'Choose a first and a last month.')
      return
    }
    setError(null)
    props.onChange({ preset: 'custom', period })
  }

  return (
    <div className="flex flex-wrap items-end gap-2">
      <Field className="space-y-1.5">
        <Label className="block text-sm font-medium text-slate-800 dark:text-slate-200">
          Period
        </Label>
        <Select
          className="w-44"
          value={props.value.preset}
          options={OPTIONS}
          onChange={(preset) =>
            preset === 'custom'
              ? props.onChange({ preset, period: props.value.period })
              : props.onChange({ preset, period: presetPeriod(preset) })
          }
        />
      </Field>
      {custom && (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault()
            applyCustom()
          }}
        >
          <label className="text-sm text-slate-700 dark:text-slate-300">
            From month
            <input
              type="month"
              className={`${controlClasses} mt-1 w-40`}
              value={from}
              onChange={(e) => setFrom(e.target.value)}
            />
          </label>
          <label className="text-sm text-slate-700 dark:text-slate-300">
            To month
            <input
              type="month"
              className={`${controlClasses} mt-1 w-40`}
              value={to}
              onChange={(e) => setTo(e.target.value)}
            />
          </label>
          <Button type="submit" variant="secondary">
            Show
          </Button>
          {error && (
            <p role="alert" className="w-full text-sm text-red-600 dark:text-red-400">
              {error}
            </p>
          )}
        </form>
      )}
    </div>
  )
}
