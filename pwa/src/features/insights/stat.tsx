import type { ReactNode } from 'react'
import { SUPPRESSED_LABEL } from '../../../../shared/insights.ts'
import { Card, CardBody } from '../../components/ui/card.tsx'
import { cn } from '../../components/ui/cn.ts'

/** One headline figure: a label, the value, and a line of context. */
export function Stat(props: {
  label: string
  value: ReactNode
  note?: ReactNode
  tone?: 'good' | 'warn'
}) {
  return (
    <Card>
      <CardBody className="space-y-1">
        <p className="text-sm text-slate-600 dark:text-slate-400">{props.label}</p>
        <p
          className={cn(
            'text-2xl font-semibold tabular-nums text-slate-900 dark:text-white',
            props.tone === 'good' && 'text-emerald-700 dark:text-emerald-400',
            props.tone === 'warn' && 'text-amber-700 dark:text-amber-400',
          )}
        >
          {props.value}
        </p>
        {props.note && <p className="text-xs text-slate-500 dark:text-slate-400">{props.note}</p>}
      </CardBody>
    </Card>
  )
}

/** A count for a tile: hidden groups say so. */
export function countText(value: number | null): string {
  return value === null ? SUPPRESSED_LABEL : value.toLocaleString()
}

export function percentText(value: number | null): string {
  return value === null ? 'not shown' : `${Math.round(value * 1000) / 10}%`
}

export function daysText(value: number | null): string {
  return value === null ? 'not shown' : `${value.toFixed(1)} days`
}
