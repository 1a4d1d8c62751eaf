import { ArrowDownTrayIcon, ArrowPathIcon } from '@heroicons/react/24/outline'
import { useMemo, useState } from 'react'
import { presetPeriod } from '../../../../shared/insights-period.ts'
import { EXPORT_FILES } from '../../../../shared/insights-report.ts'
import { Button, buttonClasses } from '../../components/ui/button.tsx'
import { EmptyState, PageHeader } from '../../components/ui/page.tsx'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { formatDateTime } from '../../lib/format.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { chartsOf } from './charts.ts'
import { type PeriodChoice, PeriodPicker } from './period-picker.tsx'
import { Capacity, Funnel, Outcomes, Trends, Waiting } from './sections.tsx'
import { useInsights } from './use-insights.ts'

/**
 * Programme insights (issue 19): where the programme stands for a period and
 * what needs attention, with charts, tables and CSV files. Groups of fewer
 * than 5 people are never shown (the server suppresses them).
 */
export default function InsightsScreen() {
  useDocumentTitle('Programme Insights')
  const [choice, setChoice] = useState<PeriodChoice>({
    preset: 'this-quarter',
    period: presetPeriod('this-quarter'),
  })
  const [reload, setReload] = useState(0)
  const { data, loading, stale } = useInsights(choice.period, reload)
  const charts = useMemo(() => (data ? chartsOf(data.report) : undefined), [data])

  return (
    <>
      <PageHeader
        title="Programme Insights"
        description={`${choice.period.from} to ${choice.period.to}. Groups of fewer than 5 people are shown as "fewer than 5".`}
        actions={
          <Button
            variant="secondary"
            onClick={() => setReload((n) => n + 1)}
            busy={loading && data !== undefined}
          >
            <ArrowPathIcon className="size-4" aria-hidden="true" />
            Refresh
          </Button>
        }
      />
      <div className="mb-6 flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <PeriodPicker value={choice} onChange={setChoice} />
        <nav className="flex flex-wrap gap-2" aria-label="Exports">
          {EXPORT_FILES.map((file) => (
            <a
              key={file}
              href={`/api/admin/export/${file}.csv`}
              download
              className={buttonClasses('secondary', 'sm')}
            >
              <ArrowDownTrayIcon className="size-4" aria-hidden="true" />
              {file.charAt(0).toUpperCase() + file.slice(1)} CSV
            </a>
          ))}
        </nav>
      </div>
      {stale && data && (
        <p
          role="status"
          className="mb-4 rounded-lg bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:bg-amber-900/30 dark:text-amber-100"
        >
          Offline: showing the figures as of {formatDateTime(data.savedAt)}.
        </p>
      )}
      {!data || !charts ? (
        loading ? (
          <PageSpinner />
        ) : (
          <EmptyState title="No figures for this period yet">
            They load when the app can reach the server.
          </EmptyState>
        )
      ) : (
        <div className="space-y-10">
          <Funnel report={data.report} charts={charts} />
          <Waiting report={data.report} />
          <Capacity report={data.report} charts={charts} />
          <Outcomes report={data.report} charts={charts} />
          <Trends charts={charts} />
        </div>
      )}
    </>
  )
}
