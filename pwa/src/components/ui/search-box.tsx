import { Field, Input, Label } from '@headlessui/react'
import { MagnifyingGlassIcon } from '@heroicons/react/20/solid'
import type { ChangeEvent } from 'react'
import { cn } from './cn.ts'
import { controlClasses } from './field.tsx'

/** A labelled search field with a magnifier. */
export function SearchBox(props: {
  label: string
  placeholder: string
  value: string
  onChange: (value: string) => void
  onFocus?: () => void
  maxLength?: number
  className?: string
}) {
  return (
    <Field className={cn('space-y-1.5', props.className)}>
      <Label className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        {props.label}
      </Label>
      <div className="relative">
        <MagnifyingGlassIcon
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
          aria-hidden="true"
        />
        <Input
          type="search"
          value={props.value}
          placeholder={props.placeholder}
          maxLength={props.maxLength}
          enterKeyHint="search"
          onFocus={props.onFocus}
          onChange={(event: ChangeEvent<HTMLInputElement>) => props.onChange(event.target.value)}
          className={cn(controlClasses, 'h-10 pl-9')}
        />
      </div>
    </Field>
  )
}
