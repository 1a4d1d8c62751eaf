import { Field, Label, Radio, RadioGroup, Select } from '@headlessui/react'
import { ClockIcon } from '@heroicons/react/24/outline'
import { useMemo } from 'react'
import {
  EMAIL_CATEGORIES,
  EMAIL_MODE_LABELS,
  EMAIL_MODES,
  type EmailCategory,
  type EmailMode,
  type Preferences,
} from '../../../../shared/preferences.ts'
import { Card } from '../../components/ui/card.tsx'
import { cn } from '../../components/ui/cn.ts'
import { controlClasses } from '../../components/ui/field.tsx'
import type { PreferencesChange } from '../../sync/mutators/users.ts'
import { HourSelect } from './hour-select.tsx'
import { CATEGORY_LABELS } from './switches.ts'

/**
 * How e-mails arrive (issue 18): per category one by one or in the daily
 * digest, the digest's hour, and the time zone those hours are in.
 */
export function DeliverySettings(props: {
  preferences: Preferences
  save: (change: PreferencesChange) => void
}) {
  const { preferences, save } = props
  const setMode = (category: EmailCategory, mode: EmailMode) =>
    save({ emailDelivery: { [category]: mode } })
  return (
    <Card>
      <SectionHeading icon={ClockIcon} id="delivery-heading">
        When e-mails arrive
      </SectionHeading>
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {EMAIL_CATEGORIES.map((category) => (
          <li
            key={category}
            className="flex flex-col gap-2 px-5 py-3 sm:flex-row sm:items-center sm:justify-between sm:px-6"
          >
            <span className="text-sm font-medium text-slate-900 dark:text-white" aria-hidden="true">
              {CATEGORY_LABELS[category]}
            </span>
            <ModeChoice
              label={CATEGORY_LABELS[category]}
              value={preferences.emailDelivery[category]}
              onChange={(mode) => setMode(category, mode)}
            />
          </li>
        ))}
      </ul>
      <div className="grid gap-4 border-t border-slate-200 px-5 py-4 sm:grid-cols-2 sm:px-6 dark:border-slate-800">
        <HourSelect
          label="Daily digest at"
          value={preferences.digestHour}
          onChange={(digestHour) => save({ digestHour })}
        />
        <TimeZoneSelect value={preferences.timeZone} onChange={(timeZone) => save({ timeZone })} />
      </div>
    </Card>
  )
}

/** "As it happens" | "Daily digest", as a two-segment radio group (arrow keys move). */
function ModeChoice(props: {
  label: string
  value: EmailMode
  onChange: (mode: EmailMode) => void
}) {
  return (
    <RadioGroup
      value={props.value}
      onChange={props.onChange}
      // Named by aria-label: Headless UI's RadioGroup sets aria-labelledby from its own <Label>s.
      aria-label={props.label}
      className="inline-flex shrink-0 rounded-lg bg-slate-100 p-0.5 dark:bg-slate-800"
    >
      {EMAIL_MODES.map((mode) => (
        <Radio
          key={mode}
          value={mode}
          className={cn(
            'cursor-pointer rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap text-slate-700 dark:text-slate-300',
            'data-checked:bg-white data-checked:text-brand-700 data-checked:shadow-sm dark:data-checked:bg-slate-950 dark:data-checked:text-brand-300',
            'focus:outline-none data-focus:ring-2 data-focus:ring-brand-600',
          )}
        >
          {EMAIL_MODE_LABELS[mode]}
        </Radio>
      ))}
    </RadioGroup>
  )
}

/** Every IANA zone this browser knows, the saved one first among them if it is not listed. */
function TimeZoneSelect(props: { value: string | null; onChange: (zone: string) => void }) {
  const zones = useMemo(() => {
    const known = Intl.supportedValuesOf('timeZone')
    return props.value && !known.includes(props.value) ? [props.value, ...known] : known
  }, [props.value])
  return (
    <Field className="space-y-1.5">
      <Label className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        Time zone
      </Label>
      <Select
        value={props.value ?? ''}
        onChange={(event) => {
          if (event.target.value) props.onChange(event.target.value)
        }}
        className={cn(controlClasses, 'h-10 pr-8')}
      >
        {props.value === null && <option value="">Not known yet (UTC is used)</option>}
        {zones.map((zone) => (
          <option key={zone} value={zone}>
            {zone.replaceAll('_', ' ')}
          </option>
        ))}
      </Select>
    </Field>
  )
}

/** A card's heading row, as the e-mail switches' card has it. */
export function SectionHeading(props: { icon: typeof ClockIcon; id?: string; children: string }) {
  const Icon = props.icon
  return (
    <div className="flex items-center gap-3 border-b border-slate-200 px-5 py-4 sm:px-6 dark:border-slate-800">
      <Icon className="size-6 text-brand-600 dark:text-brand-400" aria-hidden="true" />
      <h2 id={props.id} className="font-semibold text-slate-900 dark:text-white">
        {props.children}
      </h2>
    </div>
  )
}
