import { Listbox, ListboxButton, ListboxOption, ListboxOptions } from '@headlessui/react'
import { CheckIcon, ChevronUpDownIcon } from '@heroicons/react/20/solid'
import { cn } from './cn.ts'

export type SelectOption<V extends string> = { value: V; label: string; disabled?: boolean }

/**
 * A single-choice dropdown (Headless UI Listbox: arrow keys, type-ahead,
 * Escape, screen-reader roles). Put it in a <Field> for its label, or give
 * `aria-label`.
 */
export function Select<V extends string>(props: {
  value: V
  onChange: (value: V) => void
  options: readonly SelectOption<V>[]
  disabled?: boolean
  placeholder?: string
  className?: string
  'aria-label'?: string
}) {
  const current = props.options.find((o) => o.value === props.value)
  return (
    <Listbox value={props.value} onChange={props.onChange} disabled={props.disabled}>
      <ListboxButton
        aria-label={props['aria-label']}
        className={cn(
          'relative flex h-10 w-full items-center rounded-lg bg-white py-2 pr-9 pl-3 text-left text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none data-disabled:cursor-not-allowed data-disabled:bg-slate-50 data-disabled:text-slate-500 dark:bg-slate-950 dark:text-slate-100 dark:ring-slate-700 dark:data-disabled:bg-slate-900 dark:data-disabled:text-slate-400',
          props.className,
        )}
      >
        <span className={cn('truncate', !current && 'text-slate-500 dark:text-slate-400')}>
          {current?.label ?? props.placeholder ?? 'Select…'}
        </span>
        <ChevronUpDownIcon
          className="pointer-events-none absolute right-2.5 size-5 text-slate-400"
          aria-hidden="true"
        />
      </ListboxButton>
      <ListboxOptions
        anchor="bottom start"
        transition
        className="z-50 w-(--button-width) min-w-44 rounded-lg bg-white p-1 text-sm shadow-lg ring-1 ring-slate-900/10 [--anchor-gap:4px] focus:outline-none data-closed:opacity-0 data-leave:transition data-leave:duration-100 dark:bg-slate-900 dark:ring-white/10"
      >
        {props.options.map((option) => (
          <ListboxOption
            key={option.value}
            value={option.value}
            disabled={option.disabled}
            className="group flex cursor-default items-center gap-2 rounded-md py-2 pr-3 pl-2 text-slate-800 select-none data-disabled:cursor-not-allowed data-disabled:opacity-45 data-focus:bg-brand-50 data-focus:text-brand-800 dark:text-slate-200 dark:data-focus:bg-brand-900/60 dark:data-focus:text-white"
          >
            <CheckIcon
              className="invisible size-4 shrink-0 text-brand-600 group-data-selected:visible dark:text-brand-400"
              aria-hidden="true"
            />
            {option.label}
          </ListboxOption>
        ))}
      </ListboxOptions>
    </Listbox>
  )
}
