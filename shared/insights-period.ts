import { z } from 'zod'

// Insights periods are whole calendar months (UTC): shared/insights.ts builds a
// period's figures from its months, which is what keeps two overlapping periods
// from revealing a small group by difference.

/** The longest period one answer covers. */
const PERIOD_MAX_MONTHS = 36

const DATE = /^\d{4}-\d{2}-\d{2}$/

function parseDay(value: string): Date | null {
  if (!DATE.test(value)) return null
  const date = new Date(`${value}T00:00:00Z`)
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? null : date
}

/** The first day of the month of `date`, as YYYY-MM-DD. */
function monthStart(date: Date): string {
  return `${date.toISOString().slice(0, 7)}-01`
}

/** The last day of the month of `date`, as YYYY-MM-DD. */
export function monthEnd(date: Date): string {
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0))
  return last.toISOString().slice(0, 10)
}

/** The months (YYYY-MM) from `from` to `to`, both included. */
export function monthsOf(from: string, to: string): string[] {
  const out: string[] = []
  const d = new Date(`${from.slice(0, 7)}-01T00:00:00Z`)
  while (d.toISOString().slice(0, 7) <= to.slice(0, 7)) {
    out.push(d.toISOString().slice(0, 7))
    d.setUTCMonth(d.getUTCMonth() + 1)
  }
  return out
}

const bothDays = (p: { from: string; to: string }) =>
  parseDay(p.from) !== null && parseDay(p.to) !== null

export const periodQuerySchema = z
  .object({
    from: z
      .string({ error: 'from is required: the first day of a month, as YYYY-MM-DD' })
      .meta({ format: 'date', pattern: '^\\d{4}-\\d{2}-01$', examples: ['2026-01-01'] })
      .refine((v) => parseDay(v) !== null, 'from must be a date written YYYY-MM-DD')
      .refine(
        (v) => v.endsWith('-01'),
        'from must be the first day of a month: periods are whole months',
      ),
    to: z
      .string({ error: 'to is required: the last day of a month, as YYYY-MM-DD' })
      // A month's last day and a period of at most 36 months, which a schema cannot say.
      .meta({ format: 'date', pattern: '^\\d{4}-\\d{2}-(28|29|30|31)$', examples: ['2026-12-31'] })
      .refine((v) => parseDay(v) !== null, 'to must be a date written YYYY-MM-DD')
      .refine((v) => {
        const day = parseDay(v)
        return day !== null && monthEnd(day) === v
      }, 'to must be the last day of a month: periods are whole months'),
  })
  // Checked only on two valid dates (zod runs these even when a field failed).
  .refine((p) => !bothDays(p) || p.from <= p.to, {
    message: 'from must not be after to',
    path: ['to'],
  })
  .refine(
    (p) => !bothDays(p) || p.from > p.to || monthsOf(p.from, p.to).length <= PERIOD_MAX_MONTHS,
    {
      message: `A period can span at most ${PERIOD_MAX_MONTHS} months`,
      path: ['to'],
    },
  )

export type Period = z.infer<typeof periodQuerySchema>

export const PERIOD_PRESETS = [
  'this-quarter',
  'last-quarter',
  'this-year',
  'last-12-months',
] as const
export type PeriodPreset = (typeof PERIOD_PRESETS)[number]

export const PRESET_LABELS: Record<PeriodPreset, string> = {
  'this-quarter': 'This quarter',
  'last-quarter': 'Last quarter',
  'this-year': 'This year',
  'last-12-months': 'Last 12 months',
}

/** The period a preset names on `today`. The default view is this quarter. */
export function presetPeriod(preset: PeriodPreset, today = new Date()): Period {
  const y = today.getUTCFullYear()
  const m = today.getUTCMonth()
  const q = Math.floor(m / 3) * 3
  const span = (startMonth: number, months: number): Period => ({
    from: monthStart(new Date(Date.UTC(y, startMonth, 1))),
    to: monthEnd(new Date(Date.UTC(y, startMonth + months - 1, 1))),
  })
  switch (preset) {
    case 'this-quarter':
      return span(q, 3)
    case 'last-quarter':
      return span(q - 3, 3)
    case 'this-year':
      return span(0, 12)
    case 'last-12-months':
      return span(m - 11, 12)
  }
}
