import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { HEALTHY_MATCH_RATE, type Insights } from '../../../../shared/insights-report.ts'
import { Card, CardBody } from '../../components/ui/card.tsx'
import { Chart } from './chart.tsx'
import type { ChartSpec } from './chart-spec.ts'
import { countText, daysText, percentText, Stat } from './stat.tsx'

function Section(props: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-4" aria-label={props.title}>
      <h2 className="text-lg font-semibold text-slate-900 dark:text-white">{props.title}</h2>
      {props.children}
    </section>
  )
}

const GRID = 'grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4'

export function Funnel(props: { report: Insights; charts: Record<string, ChartSpec> }) {
  const { funnel } = props.report
  const healthy = funnel.matchRate !== null && funnel.matchRate >= HEALTHY_MATCH_RATE
  return (
    <Section title="Funnel and matching">
      <div className={GRID}>
        <Stat
          label="Match rate"
          value={percentText(funnel.matchRate)}
          tone={funnel.matchRate === null ? undefined : healthy ? 'good' : 'warn'}
          note={`${countText(funnel.menteesMatched)} of ${countText(funnel.menteesApplied)} people who applied were accepted; 70% and above is healthy.`}
        />
        <Stat
          label="Time to match (median)"
          value={daysText(funnel.timeToMatch.medianDays)}
          note={`90% within ${daysText(funnel.timeToMatch.p90Days)}`}
        />
        <Stat
          label="Acceptance rate"
          value={percentText(funnel.acceptanceRate)}
          note={`of ${countText(funnel.applications.total)} applications`}
        />
        <Stat
          label="Approved ÷ proposed"
          value={percentText(ratio(funnel.stages.approved, funnel.stages.proposed))}
          note={`${countText(funnel.stages.proposed)} topics proposed`}
        />
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <Chart spec={props.charts.topics as ChartSpec} />
        <Chart spec={props.charts.applications as ChartSpec} />
      </div>
    </Section>
  )
}

function ratio(part: number | null, whole: number | null): number | null {
  return part === null || whole === null || whole === 0 ? null : part / whole
}

export function Waiting(props: { report: Insights }) {
  const { timing } = props.report
  return (
    <Section title="How long things take">
      <div className={GRID}>
        <Stat
          label="Review a topic (median)"
          value={daysText(timing.review.medianDays)}
          note={`90% within ${daysText(timing.review.p90Days)}`}
        />
        <Stat
          label="Answer an application (median)"
          value={daysText(timing.answer.medianDays)}
          note={`90% within ${daysText(timing.answer.p90Days)}`}
        />
        <Stat
          label="Topics waiting for review"
          value={timing.proposedWaiting.toLocaleString()}
          tone={timing.proposedWaiting > 0 ? 'warn' : undefined}
        />
        <Stat
          label="Applications waiting for an answer"
          value={timing.pendingWaiting.toLocaleString()}
        />
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <OldestList
          title="Oldest topics waiting for review"
          items={timing.oldestProposed}
          empty="No topic is waiting for review."
        />
        <OldestList
          title="Oldest applications waiting for an answer"
          items={timing.oldestPending}
          empty="No application is waiting."
        />
      </div>
    </Section>
  )
}

function OldestList(props: {
  title: string
  items: Insights['timing']['oldestProposed']
  empty: string
}) {
  return (
    <Card>
      <CardBody className="space-y-2">
        <h3 className="font-semibold text-slate-900 dark:text-white">{props.title}</h3>
        {props.items.length === 0 ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">{props.empty}</p>
        ) : (
          <ol className="divide-y divide-slate-100 text-sm dark:divide-slate-800">
            {props.items.map((item) => (
              <li key={item.id} className="flex justify-between gap-3 py-1.5">
                <Link
                  to={`/topics/${item.topicId}`}
                  className="min-w-0 truncate text-brand-700 hover:underline dark:text-brand-300"
                >
                  {item.subject}
                </Link>
                <span className="shrink-0 tabular-nums text-slate-600 dark:text-slate-400">
                  {item.ageDays.toFixed(1)} days
                </span>
              </li>
            ))}
          </ol>
        )}
      </CardBody>
    </Card>
  )
}

export function Capacity(props: { report: Insights; charts: Record<string, ChartSpec> }) {
  const { capacity } = props.report
  return (
    <Section title="Capacity now">
      <div className={GRID}>
        <Stat
          label="Open places"
          value={countText(capacity.openPlaces)}
          note="Free places on approved topics"
        />
        <Stat
          label="Filled places"
          value={countText(capacity.filledPlaces)}
          note="Accepted mentees on approved and started topics"
        />
        <Stat
          label="Mentees waiting"
          value={countText(capacity.menteesWaiting)}
          note="With a pending application and no accepted one"
        />
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <Chart spec={props.charts.openTopics as ChartSpec} />
        <Chart spec={props.charts.seniority as ChartSpec} />
      </div>
      <Chart spec={props.charts.interests as ChartSpec} />
    </Section>
  )
}

export function Outcomes(props: { report: Insights; charts: Record<string, ChartSpec> }) {
  const { outcomes } = props.report
  return (
    <Section title="Outcomes">
      <div className={GRID}>
        <Stat label="Topics concluded" value={countText(outcomes.concluded)} />
        <Stat
          label="Concluded with feedback"
          value={percentText(outcomes.feedbackShare)}
          note={`${countText(outcomes.concludedWithFeedback)} topics`}
        />
      </div>
      <Chart spec={props.charts.ratings as ChartSpec} />
    </Section>
  )
}

export function Trends(props: { charts: Record<string, ChartSpec> }) {
  return (
    <Section title="Month by month">
      <Chart spec={props.charts.activity as ChartSpec} />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <Chart spec={props.charts.rates as ChartSpec} />
        <Chart spec={props.charts.times as ChartSpec} />
      </div>
    </Section>
  )
}
