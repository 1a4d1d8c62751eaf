import { Field, Label, Select } from '@headlessui/react'
import { cn } from '../../components/ui/cn.ts'
import { controlClasses } from '../../components/ui/field.tsx'

const HOURS = Array.from({ length: 24 }, (_, hour) => hour)

/** 8 → "08:00". */
function hourLabel(hour: number): string {
  return `${String(hour).padStart(2, '0')}:00`
}

/** A labelled native select of the 24 hours of a day (a wheel on phones). */
export function HourSelect(props: {
  label: string
  value: number
  onChange: (hour: number) => void
  disabled?: boolean
  invalid?: boolean
  describedBy?: string
}) {
  return (
    <Field disabled={props.disabled} className="space-y-1.5">
      <Label className="block text-sm font-medium text-slate-800 data-disabled:opacity-70 dark:text-slate-200">
        {props.label}
      </Label>
      <Select
        value={props.value}
        invalid={props.invalid}
        aria-describedby={props.describedBy}
        onChange={(event) => props.onChange(Number(event.target.value))}
        className={cn(controlClasses, 'h-10 pr-8 tabular-nums')}
      >
        {HOURS.map((hour) => (
          <option key={hour} value={hour}>
            {hourLabel(hour)}
          </option>
        ))}
      </Select>
    </Field>
  )
}
