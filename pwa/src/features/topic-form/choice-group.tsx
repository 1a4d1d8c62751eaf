import { Description, Field, Label, Radio, RadioGroup } from '@headlessui/react'
import { CheckCircleIcon } from '@heroicons/react/20/solid'
import type { ComponentType, SVGProps } from 'react'
import { cn } from '../../components/ui/cn.ts'

export type Choice<V> = {
  value: V
  label: string
  hint?: string
  icon?: ComponentType<SVGProps<SVGSVGElement>>
}

/**
 * A labelled set of option cards (Headless UI RadioGroup: one tab stop, arrow
 * keys choose, screen readers hear a radio group).
 */
export function ChoiceGroup<V extends string | number>(props: {
  label: string
  value: V
  onChange: (value: V) => void
  choices: readonly Choice<V>[]
  columns: 2 | 3
  error?: string
}) {
  return (
    <Field className="space-y-1.5">
      <Label className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        {props.label}
      </Label>
      <RadioGroup
        value={props.value}
        onChange={props.onChange}
        className={cn(
          'grid grid-cols-1 gap-2',
          props.columns === 3 ? 'sm:grid-cols-3' : 'sm:grid-cols-2',
        )}
      >
        {props.choices.map((choice) => {
          const Icon = choice.icon
          return (
            <Field key={String(choice.value)}>
              <Radio
                value={choice.value}
                className="group relative flex h-full cursor-pointer items-center gap-2.5 rounded-lg bg-white px-3 py-2.5 text-sm shadow-sm ring-1 ring-slate-300 ring-inset transition-colors hover:bg-slate-50 focus:outline-none data-checked:bg-brand-50 data-checked:ring-2 data-checked:ring-brand-600 data-focus:outline-2 data-focus:outline-offset-2 data-focus:outline-brand-600 dark:bg-slate-950 dark:ring-slate-700 dark:hover:bg-slate-900 dark:data-checked:bg-brand-950/50 dark:data-checked:ring-brand-400 dark:data-focus:outline-brand-400"
              >
                {Icon && (
                  <Icon
                    className="size-5 shrink-0 text-slate-500 group-data-checked:text-brand-600 dark:text-slate-400 dark:group-data-checked:text-brand-300"
                    aria-hidden="true"
                  />
                )}
                <span className="min-w-0 flex-1">
                  <Label className="block font-medium text-slate-900 dark:text-slate-100">
                    {choice.label}
                  </Label>
                  {choice.hint && (
                    <Description className="block text-xs text-slate-600 dark:text-slate-400">
                      {choice.hint}
                    </Description>
                  )}
                </span>
                <CheckCircleIcon
                  className="invisible size-5 shrink-0 text-brand-600 group-data-checked:visible dark:text-brand-300"
                  aria-hidden="true"
                />
              </Radio>
            </Field>
          )
        })}
      </RadioGroup>
      {props.error && (
        <p className="text-sm font-medium text-red-600 dark:text-red-400" role="alert">
          {props.error}
        </p>
      )}
    </Field>
  )
}
