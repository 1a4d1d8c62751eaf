import { Description, Field, Label, Switch } from '@headlessui/react'
import type { ReactNode } from 'react'
import { cn } from '../../components/ui/cn.ts'

/**
 * One e-mail preference: a Headless UI Switch (Space toggles it, its role is
 * "switch") labelled by its title and described by its description.
 */
export function PreferenceSwitch(props: {
  label: string
  description: string
  badge?: ReactNode
  checked: boolean
  onChange: (next: boolean) => void
}) {
  return (
    <Field className="flex items-start justify-between gap-4 px-5 py-4 sm:px-6">
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <Label className="text-sm font-medium text-slate-900 dark:text-white">
            {props.label}
          </Label>
          {props.badge}
        </div>
        <Description className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {props.description}
        </Description>
      </div>
      <Switch
        checked={props.checked}
        onChange={props.onChange}
        className={cn(
          'group relative mt-0.5 inline-flex h-6 w-11 shrink-0 cursor-pointer rounded-full p-0.5 transition-colors',
          'bg-slate-300 data-checked:bg-brand-600 dark:bg-slate-600 dark:data-checked:bg-brand-500',
          'data-focus:outline-2 data-focus:outline-offset-2 data-focus:outline-brand-600 dark:data-focus:outline-brand-400',
        )}
      >
        <span
          aria-hidden="true"
          className="size-5 translate-x-0 rounded-full bg-white shadow transition-transform group-data-checked:translate-x-5"
        />
      </Switch>
    </Field>
  )
}
