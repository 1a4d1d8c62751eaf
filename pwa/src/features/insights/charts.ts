import type { Insights, InsightsBreakdown } from '../../../../shared/insights-report.ts'
import type { ChartSpec } from './chart-spec.ts'

const cellOf = (b: InsightsBreakdown, key: string) =>
  b.cells.find((c) => c.key === key)?.count ?? null
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/** Every chart of the screen, built from one answer (already suppressed by the server). */
export function chartsOf(report: Insights): Record<string, ChartSpec> {
  const { funnel, capacity, demand, outcomes, trends } = report
  const stars = ['1', '2', '3', '4', '5']
  // The interests where demand most outruns supply come first (the server's order).
  const drawn = Math.min(12, demand.byInterest.length)
  return {
    topics: {
      id: 'topic-funnel',
      title: 'Topics: proposed → approved → started → concluded',
      description: `Topics proposed, approved, started and concluded in the period: ${[
        funnel.stages.proposed,
        funnel.stages.approved,
        funnel.stages.started,
        funnel.stages.concluded,
      ]
        .map((v) => v ?? 'fewer than 5')
        .join(', ')}.`,
      kind: 'columns',
      labelHeader: 'Stage',
      series: [{ key: 'n', label: 'Topics' }],
      rows: (['proposed', 'approved', 'started', 'concluded'] as const).map((k) => ({
        label: cap(k),
        values: { n: funnel.stages[k] },
      })),
      unit: 'count',
    },
    applications: {
      id: 'applications',
      title: 'Applications made in the period, by status now',
      description: `Applications: ${funnel.applications.cells.map((c) => `${c.key} ${c.count ?? 'fewer than 5'}`).join(', ')}.`,
      kind: 'columns',
      labelHeader: 'Status',
      series: [{ key: 'n', label: 'Applications' }],
      rows: ['pending', 'accepted', 'rejected'].map((k) => ({
        label: cap(k),
        values: { n: cellOf(funnel.applications, k) },
      })),
      unit: 'count',
    },
    openTopics: {
      id: 'open-topics',
      title: 'Open topics: with room or full',
      description: `Approved topics with room ${cellOf(capacity.openTopics, 'with room') ?? 'fewer than 5'}, full ${cellOf(capacity.openTopics, 'full') ?? 'fewer than 5'}.`,
      kind: 'columns',
      labelHeader: 'Topics',
      series: [{ key: 'n', label: 'Topics' }],
      rows: ['with room', 'full'].map((k) => ({
        label: cap(k),
        values: { n: cellOf(capacity.openTopics, k) },
      })),
      unit: 'count',
    },
    interests: {
      id: 'demand-by-interest',
      title: 'Demand and supply by interest',
      description: `Each interest's share of the people interested beside its share of the open topics, for the ${drawn} interests where demand most outruns supply; the table lists every interest with its counts.`,
      kind: 'rows',
      labelHeader: 'Interest',
      series: [
        { key: 'peopleShare', label: 'Share of people interested' },
        { key: 'topicShare', label: 'Share of open topics' },
        { key: 'people', label: 'People interested', unit: 'count', tableOnly: true },
        { key: 'openTopics', label: 'Open topics', unit: 'count', tableOnly: true },
      ],
      rows: interestRows(demand.byInterest),
      unit: 'percent',
      chartRows: drawn,
    },
    seniority: {
      id: 'demand-by-seniority',
      title: 'Demand and supply by seniority',
      description:
        'People at each level of seniority, and free places on open topics for that level.',
      kind: 'columns',
      labelHeader: 'Seniority',
      series: [
        { key: 'people', label: 'People' },
        { key: 'openPlaces', label: 'Open places' },
      ],
      rows: demand.bySeniority.map((r) => ({
        label: r.key === 'mid' ? 'Mid-Level' : cap(r.key),
        values: { people: r.people, openPlaces: r.openPlaces },
      })),
      unit: 'count',
    },
    ratings: {
      id: 'ratings',
      title: 'Star ratings on topics concluded in the period',
      description: 'How many ratings of each number of stars mentors and mentees gave.',
      kind: 'columns',
      labelHeader: 'Stars',
      series: [
        { key: 'mentor', label: 'Mentors' },
        { key: 'mentee', label: 'Mentees' },
      ],
      rows: stars.map((s) => ({
        label: `${s} ★`,
        values: {
          mentor: cellOf(outcomes.mentorRatings, s),
          mentee: cellOf(outcomes.menteeRatings, s),
        },
      })),
      unit: 'count',
    },
    activity: {
      id: 'monthly-activity',
      title: 'Month by month: topics proposed, applications, acceptances',
      description: `Topics proposed, applications and acceptances in each month from ${trends[0]?.month ?? ''} to ${trends.at(-1)?.month ?? ''}.`,
      kind: 'lines',
      labelHeader: 'Month',
      series: [
        { key: 'topics', label: 'Topics proposed' },
        { key: 'applications', label: 'Applications' },
        { key: 'accepted', label: 'Accepted' },
      ],
      rows: trends.map((t) => ({
        label: t.month,
        values: { topics: t.topicsProposed, applications: t.applications, accepted: t.accepted },
      })),
      unit: 'count',
    },
    rates: {
      id: 'monthly-rates',
      title: 'Month by month: match rate and feedback share',
      description: 'The match rate and the share of concluded topics with feedback, in each month.',
      kind: 'lines',
      labelHeader: 'Month',
      series: [
        { key: 'match', label: 'Match rate' },
        { key: 'feedback', label: 'Feedback share' },
      ],
      rows: trends.map((t) => ({
        label: t.month,
        values: { match: t.matchRate, feedback: t.feedbackShare },
      })),
      unit: 'percent',
    },
    times: {
      id: 'monthly-times',
      title: 'Month by month: median days to review and to answer',
      description:
        'Median days from proposal to review, and from application to answer, in each month.',
      kind: 'lines',
      labelHeader: 'Month',
      series: [
        { key: 'review', label: 'Review' },
        { key: 'answer', label: 'Answer' },
      ],
      rows: trends.map((t) => ({
        label: t.month,
        values: { review: t.reviewMedianDays, answer: t.answerMedianDays },
      })),
      unit: 'days',
    },
  }
}

/**
 * Interests with their share of the people interested and of the open topics
 * (of the shown counts), largest shortfall of supply first: people and topics
 * differ by two orders of magnitude, so raw counts on one axis would hide supply.
 */
function interestRows(rows: Insights['demand']['byInterest']) {
  const sum = (list: (number | null)[]) => list.reduce<number>((s, n) => s + (n ?? 0), 0)
  const people = sum(rows.map((r) => r.people))
  const topics = sum(rows.map((r) => r.openTopics))
  const share = (n: number | null, total: number) => (n === null || total === 0 ? null : n / total)
  return rows
    .map((r) => ({
      label: r.key,
      values: {
        peopleShare: share(r.people, people),
        topicShare: share(r.openTopics, topics),
        people: r.people,
        openTopics: r.openTopics,
      },
    }))
    .sort((a, b) => gap(b.values) - gap(a.values))
}

function gap(v: { peopleShare: number | null; topicShare: number | null }): number {
  return (v.peopleShare ?? 0) - (v.topicShare ?? 0)
}
