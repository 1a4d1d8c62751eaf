import { Switch } from '@headlessui/react'
import { cn } from './cn.ts'

/**
 * The on/off control of a setting: a Headless UI Switch (role "switch",
 * Space toggles it). Put it in a Headless UI <Field> with a <Label> for its name.
 */
export function ToggleSwitch(props: { checked: boolean; onChange: (next: boolean) => void }) {
  return (
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
  )
}
