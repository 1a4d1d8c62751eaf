import * as Plot from '@observablehq/plot'
import { useEffect, useRef, useState } from 'react'
import { buttonClasses } from '../../components/ui/button.tsx'
import { Card, CardBody } from '../../components/ui/card.tsx'
import { cn } from '../../components/ui/cn.ts'
import { type ChartSpec, chartCsv, drawnSeries, formatValue, plotData } from './chart-spec.ts'

/** Colours that read on white and on slate-900 alike (indigo-500, teal-500, amber-500). */
const COLOURS = ['#6366f1', '#14b8a6', '#f59e0b']

/** Draws a spec with Observable Plot at the width of its box. */
function draw(spec: ChartSpec, width: number): SVGSVGElement | HTMLElement {
  const data = plotData(spec)
  const shown = data.filter((d) => d.value !== null)
  const hidden = data.filter((d) => d.value === null)
  const percent = spec.unit === 'percent'
  const series = drawnSeries(spec)
  const color = {
    domain: series.map((s) => s.label),
    range: COLOURS,
    legend: series.length > 1,
  }
  // Nothing to draw (every group hidden or zero): an axis from 0 to 5 (the smallest group
  // shown) or to 100 %, rather than a scale of zero height with its ticks piled up.
  const empty = shown.every((d) => !d.value)
  const emptyDomain: [number, number] = [0, percent ? 1 : 5]
  const common = {
    width,
    style: { background: 'transparent', color: 'currentColor', fontSize: '12px' },
  }
  if (spec.kind === 'lines') {
    return Plot.plot({
      ...common,
      height: 260,
      color,
      y: {
        grid: true,
        label: null,
        tickFormat: percent ? '.0%' : undefined,
        zero: true,
        ...(empty ? { domain: emptyDomain } : {}),
      },
      x: { type: 'point', label: null, tickRotate: width < 500 ? -45 : 0 },
      marginBottom: width < 500 ? 50 : 30,
      marks: [
        Plot.ruleY([0]),
        Plot.lineY(shown, { x: 'label', y: 'value', stroke: 'series', marker: 'circle' }),
      ],
    })
  }
  if (spec.kind === 'rows') {
    return Plot.plot({
      ...common,
      color,
      marginLeft: Math.min(150, width * 0.45),
      height:
        24 +
        Math.min(spec.rows.length, spec.chartRows ?? spec.rows.length) * (series.length * 14 + 8),
      fy: {
        label: null,
        domain: [...new Set(data.map((d) => d.label))],
        // Long interest names would be cut at the left edge on a phone.
        tickFormat: (d: string) => (width < 500 && d.length > 16 ? `${d.slice(0, 15)}…` : d),
      },
      y: { axis: null, domain: series.map((s) => s.label) },
      x: {
        grid: true,
        label: null,
        tickFormat: percent ? '.0%' : undefined,
        ticks: width < 500 ? 3 : undefined,
        ...(empty ? { domain: emptyDomain } : {}),
      },
      marks: [
        Plot.barX(shown, { fy: 'label', y: 'series', x: 'value', fill: 'series' }),
        Plot.text(hidden, {
          fy: 'label',
          y: 'series',
          x: 0,
          text: () => 'fewer than 5',
          textAnchor: 'start',
          dx: 4,
        }),
        Plot.ruleX([0]),
      ],
    })
  }
  return Plot.plot({
    ...common,
    height: 240,
    color,
    fx: series.length > 1 ? { label: null } : undefined,
    x:
      series.length > 1
        ? { axis: null, domain: series.map((s) => s.label) }
        : { label: null, domain: spec.rows.map((r) => r.label) },
    y: {
      grid: true,
      label: null,
      tickFormat: percent ? '.0%' : undefined,
      ...(empty ? { domain: emptyDomain } : {}),
    },
    marks: [
      Plot.barY(shown, {
        ...(series.length > 1 ? { fx: 'label', x: 'series' } : { x: 'label' }),
        y: 'value',
        fill: 'series',
      }),
      Plot.text(hidden, {
        ...(series.length > 1 ? { fx: 'label', x: 'series' } : { x: 'label' }),
        y: 0,
        text: () => '<5',
        dy: -8,
      }),
      Plot.ruleY([0]),
    ],
  })
}

/**
 * A chart with its table and CSV file. The drawing is an image named by the
 * spec's description; the table (always there for screen readers, shown on
 * request) carries every figure, hidden groups written "fewer than 5".
 */
export function Chart(props: { spec: ChartSpec }) {
  const { spec } = props
  const box = useRef<HTMLDivElement>(null)
  const [asTable, setAsTable] = useState(false)
  const [width, setWidth] = useState(0)

  useEffect(() => {
    const el = box.current
    if (!el) return
    const observer = new ResizeObserver(([entry]) =>
      setWidth(Math.floor(entry?.contentRect.width ?? 0)),
    )
    observer.observe(el)
    return () => observer.disconnect()
  }, [])

  useEffect(() => {
    const el = box.current
    if (!el || asTable || width === 0) return
    const figure = draw(spec, width)
    figure.setAttribute('aria-hidden', 'true')
    el.replaceChildren(figure)
    return () => figure.remove()
  }, [spec, width, asTable])

  const download = () => {
    const url = URL.createObjectURL(new Blob([chartCsv(spec)], { type: 'text/csv;charset=utf-8' }))
    const link = document.createElement('a')
    link.href = url
    link.download = `pairwise-${spec.id}.csv`
    link.click()
    setTimeout(() => URL.revokeObjectURL(url), 1000)
  }

  return (
    <Card role="figure" aria-labelledby={`${spec.id}-title`}>
      <CardBody className="space-y-3">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h3 id={`${spec.id}-title`} className="font-semibold text-slate-900 dark:text-white">
            {spec.title}
          </h3>
          <div className="flex gap-1">
            <button
              type="button"
              className={buttonClasses('ghost', 'sm')}
              aria-pressed={asTable}
              onClick={() => setAsTable(!asTable)}
            >
              {asTable ? 'Chart' : 'Table'}
            </button>
            <button type="button" className={buttonClasses('ghost', 'sm')} onClick={download}>
              Download CSV<span className="sr-only">: {spec.title}</span>
            </button>
          </div>
        </div>
        <div
          ref={box}
          role="img"
          aria-label={spec.description}
          hidden={asTable}
          className="min-h-40 w-full overflow-hidden text-slate-700 dark:text-slate-300"
        />
        <div className={cn(!asTable && 'sr-only')}>
          <DataTable spec={spec} />
        </div>
      </CardBody>
    </Card>
  )
}

function DataTable(props: { spec: ChartSpec }) {
  const { spec } = props
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">{spec.title}</caption>
      <thead className="text-slate-500 dark:text-slate-400">
        <tr>
          <th scope="col" className="py-1 pr-4 font-medium">
            {spec.labelHeader}
          </th>
          {spec.series.map((s) => (
            <th key={s.key} scope="col" className="py-1 pr-4 text-right font-medium">
              {s.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 text-slate-800 dark:divide-slate-800 dark:text-slate-200">
        {spec.rows.map((row) => (
          <tr key={row.label}>
            <th scope="row" className="py-1 pr-4 font-normal">
              {row.label}
            </th>
            {spec.series.map((s) => (
              <td key={s.key} className="py-1 pr-4 text-right tabular-nums">
                {formatValue(row.values[s.key] ?? null, s.unit ?? spec.unit)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
