import type { ComponentProps } from 'react'
import { cn } from './cn.ts'

/** A surface: white (slate in dark) with a hairline border and a soft shadow. */
export function Card({ className, ...rest }: ComponentProps<'div'>) {
  return (
    <div
      className={cn(
        'rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900',
        className,
      )}
      {...rest}
    />
  )
}

export function CardBody({ className, ...rest }: ComponentProps<'div'>) {
  return <div className={cn('p-5 sm:p-6', className)} {...rest} />
}
