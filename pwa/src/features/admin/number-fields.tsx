import { Description, Field, Input, Label } from '@headlessui/react'
import { cn } from '../../components/ui/cn.ts'
import { controlClasses } from '../../components/ui/field.tsx'
import { ToggleSwitch } from '../../components/ui/toggle-switch.tsx'

/** A number, or off (null): a switch, and the number beside it while on. */
export function DaysOrOff(props: {
  id: string
  label: string
  description: string
  value: string | null
  /** What the number starts at when switched on. */
  fallback: string
  max: number
  error: string | undefined
  onChange: (value: string | null) => void
  prefix?: string
  unit: string
}) {
  const on = props.value !== null
  return (
    <div className="space-y-2" data-testid={props.id}>
      <Field className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <Label className="text-sm font-medium text-slate-900 dark:text-white">
            {props.label}
          </Label>
          <Description className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
            {props.description}
          </Description>
        </div>
        <ToggleSwitch
          checked={on}
          onChange={(next) => props.onChange(next ? props.fallback : null)}
        />
      </Field>
      {on ? (
        <NumberField
          id={`${props.id}-value`}
          label={`${props.label}: number`}
          hideLabel
          value={props.value ?? ''}
          max={props.max}
          error={props.error}
          onChange={props.onChange}
          prefix={props.prefix}
          suffix={props.unit}
        />
      ) : (
        <p className="flex h-9 items-center text-sm text-slate-500 dark:text-slate-400">Off</p>
      )}
    </div>
  )
}

export function NumberField(props: {
  id: string
  label: string
  hideLabel?: boolean
  value: string
  max: number
  error: string | undefined
  onChange: (value: string) => void
  prefix?: string | undefined
  suffix: string
}) {
  const errorId = `${props.id}-error`
  return (
    <Field className="space-y-1">
      <Label
        className={
          props.hideLabel
            ? 'sr-only'
            : 'block text-sm font-medium text-slate-800 dark:text-slate-200'
        }
      >
        {props.label}
      </Label>
      <div className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
        {props.prefix && <span aria-hidden="true">{props.prefix}</span>}
        <div className="w-20 shrink-0">
          <Input
            id={props.id}
            type="number"
            inputMode="numeric"
            min={1}
            max={props.max}
            step={1}
            value={props.value}
            invalid={props.error !== undefined}
            aria-describedby={props.error ? errorId : undefined}
            onChange={(event) => props.onChange(event.target.value)}
            className={cn(controlClasses, 'h-9 tabular-nums')}
          />
        </div>
        <span aria-hidden="true">{props.suffix}</span>
      </div>
      {props.error && (
        <p id={errorId} role="alert" className="text-sm font-medium text-red-600 dark:text-red-400">
          {props.error}
        </p>
      )}
    </Field>
  )
}
