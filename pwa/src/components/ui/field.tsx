import {
  Description,
  Field as HeadlessField,
  Textarea as HeadlessTextarea,
  Label,
  type TextareaProps,
} from '@headlessui/react'
import type { ReactNode } from 'react'
import { cn } from './cn.ts'

const CONTROL =
  'block w-full rounded-lg border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:outline-none data-disabled:cursor-not-allowed data-disabled:bg-slate-50 data-disabled:text-slate-500 data-invalid:ring-red-500 dark:bg-slate-950 dark:text-slate-100 dark:ring-slate-700 dark:placeholder:text-slate-500 dark:focus:ring-brand-400 dark:data-disabled:bg-slate-900 dark:data-disabled:text-slate-400'

/** The classes of a text control, for controls that are not Input/Textarea. */
export const controlClasses = CONTROL

/**
 * A labelled form field (Headless UI's Field wires label, description and
 * control together): a label, the control, a hint and an error message.
 */
export function Field(props: {
  label: ReactNode
  hint?: ReactNode
  error?: string | null
  disabled?: boolean
  className?: string
  children: ReactNode
}) {
  return (
    <HeadlessField disabled={props.disabled} className={cn('space-y-1.5', props.className)}>
      <Label className="block text-sm font-medium text-slate-800 data-disabled:opacity-70 dark:text-slate-200">
        {props.label}
      </Label>
      {props.children}
      {props.hint && !props.error && (
        <Description className="text-xs text-slate-500 dark:text-slate-400">
          {props.hint}
        </Description>
      )}
      {props.error && (
        <Description className="text-sm font-medium text-red-600 dark:text-red-400" role="alert">
          {props.error}
        </Description>
      )}
    </HeadlessField>
  )
}

export function Textarea({ className, ...rest }: TextareaProps<'textarea'>) {
  return <HeadlessTextarea className={cn(CONTROL, 'min-h-24', className as string)} {...rest} />
}
