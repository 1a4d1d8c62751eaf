import { Field, Label } from '@headlessui/react'
import { cn } from '../../components/ui/cn.ts'
import { Select, type SelectOption } from '../../components/ui/select.tsx'

/** A labelled status filter beside a list's heading. */
export function FilterSelect<V extends string>(props: {
  label: string
  value: V
  onChange: (value: V) => void
  options: readonly SelectOption<V>[]
  className?: string
}) {
  return (
    <Field className={cn('flex items-center gap-2', props.className)}>
      <Label className="text-sm font-medium whitespace-nowrap text-slate-700 dark:text-slate-300">
        {props.label}
      </Label>
      <Select
        value={props.value}
        onChange={props.onChange}
        options={props.options}
        className="min-w-44"
      />
    </Field>
  )
}

/** The label of the chosen option, lower-cased for "No {status} … found". */
export function optionWord<V extends string>(
  options: readonly SelectOption<V>[],
  value: V,
): string {
  return (options.find((o) => o.value === value)?.label ?? value).toLowerCase()
}
