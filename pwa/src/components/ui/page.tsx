import type { ReactNode } from 'react'
import { Card, CardBody } from './card.tsx'
import { cn } from './cn.ts'

/** A screen's heading row: the title (the page's only h1), a line under it, and actions on the right. */
export function PageHeader(props: {
  title: ReactNode
  description?: ReactNode
  actions?: ReactNode
  className?: string
}) {
  return (
    <div
      className={cn(
        'mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between',
        props.className,
      )}
    >
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-white">
          {props.title}
        </h1>
        {props.description && (
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{props.description}</p>
        )}
      </div>
      {props.actions && <div className="flex flex-wrap gap-2">{props.actions}</div>}
    </div>
  )
}

/** An empty list or a missing thing: a quiet box with a text, and maybe an action. */
export function EmptyState(props: {
  title: ReactNode
  children?: ReactNode
  icon?: ReactNode
  className?: string
}) {
  return (
    <div
      className={cn(
        'flex flex-col items-center justify-center gap-2 rounded-xl border border-dashed border-slate-300 px-6 py-10 text-center dark:border-slate-700',
        props.className,
      )}
    >
      {props.icon && <div className="text-slate-400 dark:text-slate-500">{props.icon}</div>}
      <p className="font-medium text-slate-700 dark:text-slate-300">{props.title}</p>
      {props.children && (
        <div className="text-sm text-slate-500 dark:text-slate-400">{props.children}</div>
      )}
    </div>
  )
}

/** A centred card with a heading and text: 404, "Topic not found" and the like. */
export function MessageCard(props: {
  title: ReactNode
  children?: ReactNode
  actions?: ReactNode
}) {
  return (
    <Card className="mx-auto mt-8 max-w-md text-center">
      <CardBody className="space-y-3 py-10">
        <h1 className="text-xl font-semibold text-slate-900 dark:text-white">{props.title}</h1>
        {props.children && (
          <div className="text-slate-600 dark:text-slate-400">{props.children}</div>
        )}
        {props.actions && <div className="flex justify-center gap-2 pt-2">{props.actions}</div>}
      </CardBody>
    </Card>
  )
}
