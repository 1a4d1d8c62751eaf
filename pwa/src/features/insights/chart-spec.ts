// The browser build: the Node one needs Buffer.
import { stringify } from 'csv-stringify/browser/esm/sync'
import { CSV_OPTIONS } from '../../../../shared/csv.ts'
import { SUPPRESSED_LABEL } from '../../../../shared/insights.ts'

/** One chart of the insights screen: the same rows draw it, fill its table and its CSV file. */
export type ChartSpec = {
  id: string
  title: string
  /** What the chart shows, in a sentence: its accessible name. */
  description: string
  kind: 'columns' | 'rows' | 'lines'
  labelHeader: string
  /** `tableOnly` series are listed in the table and CSV file but not drawn; `unit` overrides the chart's. */
  series: { key: string; label: string; unit?: ChartSpec['unit']; tableOnly?: boolean }[]
  rows: { label: string; values: Record<string, number | null> }[]
  unit: 'count' | 'percent' | 'days'
  /** Draw only the first rows (the table and CSV file keep them all). */
  chartRows?: number
}

/** A value as the table writes it: hidden groups as "fewer than 5", rates as percentages. */
export function formatValue(value: number | null, unit: ChartSpec['unit']): string {
  if (value === null) return unit === 'count' ? SUPPRESSED_LABEL : 'not shown'
  if (unit === 'percent') return `${(value * 100).toFixed(1)}%`
  if (unit === 'days') return `${value.toFixed(1)} days`
  return value.toLocaleString()
}

/**
 * The chart's CSV file: its table, with the same suppression as the screen
 * (hidden figures read "fewer than 5"), through the app's CSV options (BOM,
 * CRLF, formula injection neutralised: interest names are free text).
 */
export function chartCsv(spec: ChartSpec): string {
  const suffix = (unit: ChartSpec['unit']) =>
    unit === 'percent' ? ' (%)' : unit === 'days' ? ' (days)' : ''
  const columns = [
    spec.labelHeader,
    ...spec.series.map((s) => `${s.label}${suffix(s.unit ?? spec.unit)}`),
  ]
  const records = spec.rows.map((row) => [
    row.label,
    ...spec.series.map((s) => {
      const unit = s.unit ?? spec.unit
      const value = row.values[s.key] ?? null
      if (value === null) return unit === 'count' ? SUPPRESSED_LABEL : ''
      return unit === 'percent' ? Math.round(value * 1000) / 10 : value
    }),
  ])
  return stringify(records, { ...CSV_OPTIONS, columns })
}

/** Long rows for Observable Plot: one per label and series, hidden ones flagged. */
export function plotData(spec: ChartSpec) {
  return spec.rows.slice(0, spec.chartRows ?? spec.rows.length).flatMap((row) =>
    drawnSeries(spec).map((s) => ({
      label: row.label,
      series: s.label,
      value: row.values[s.key] ?? null,
    })),
  )
}

/** The series the chart draws. */
export function drawnSeries(spec: ChartSpec) {
  return spec.series.filter((s) => !s.tableOnly)
}
