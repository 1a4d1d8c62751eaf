import { Description, Field, Label } from '@headlessui/react'
import type { ReactNode } from 'react'
import { ToggleSwitch } from '../../components/ui/toggle-switch.tsx'

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
      <ToggleSwitch checked={props.checked} onChange={props.onChange} />
    </Field>
  )
}
