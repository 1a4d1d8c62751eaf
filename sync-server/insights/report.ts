import {
  type Breakdown,
  type Count,
  countOverMonths,
  isSmall,
  MIN_GROUP_SIZE,
  type RawCell,
  rateOf,
  suppress,
  suppressCount,
  suppressOverMonths,
} from '../../shared/insights.ts'
import { monthsOf, type Period } from '../../shared/insights-period.ts'
import {
  APPLICATION_STATUS_KEYS,
  type Insights,
  type InsightsDuration,
  RATING_KEYS,
  SENIORITY_KEYS,
  TOPIC_STATUS_KEYS,
} from '../../shared/insights-report.ts'
import type { Db } from '../db/connect.ts'
import { type DurationRow, durations } from './durations.ts'
import { type MonthlyCount, monthlyCounts, periodMentees } from './monthly-counts.ts'
import { oldestWaiting, snapshot, type WaitingItem } from './snapshot.ts'

/** Months of trend shown: the year up to the end of the period, or the period when longer. */
const TREND_MONTHS = 12

/**
 * Every figure of GET /api/admin/insights for a period, suppressed by the rules
 * of shared/insights.ts. Formulas: docs/insights.md.
 */
export async function buildInsights(db: Db, period: Period, now = new Date()): Promise<Insights> {
  const months = monthsOf(period.from, period.to)
  const trendFrom = trendStart(period)
  const [counts, periodDurations, trendDurations, mentees, now_, waiting] = await Promise.all([
    monthlyCounts(db, trendFrom < period.from ? trendFrom : period.from, period.to),
    durations(db, period.from, period.to),
    durations(db, trendFrom, period.to),
    periodMentees(db, period.from, period.to),
    snapshot(db),
    oldestWaiting(db),
  ])
  // Months still to come have nothing to show: the trend stops at this month.
  const thisMonth = now.toISOString().slice(0, 7)
  const trendMonths = monthsOf(trendFrom, period.to).filter((m) => m <= thisMonth)
  const raw = rawCounts(counts)
  const breakdown = (figure: string, keys: readonly string[], over: string[]) =>
    suppressOverMonths(
      over.map((m) => {
        const cells = keys.map((key) => ({ key, count: raw(figure, m, key) }))
        return { cells, total: cells.reduce((s, c) => s + c.count, 0) }
      }),
      [...keys],
    )
  const topics = breakdown('topics', TOPIC_STATUS_KEYS, months).period
  const applications = breakdown('applications', APPLICATION_STATUS_KEYS, months).period
  const matched = nonAdditive(
    months.map((m) => ({
      applied: raw('menteesApplied', m, 'all'),
      matched: raw('menteesMatched', m, 'all'),
    })),
    mentees,
  )
  const feedback = feedbackSplit(
    months.map((m) => ({
      concluded: raw('concluded', m, 'all'),
      withFeedback: raw('concludedWithFeedback', m, 'all'),
    })),
  )
  const cellOf = (b: Breakdown, key: string) => b.cells.find((c) => c.key === key)?.count ?? null
  // Stage events are counts of their own (not parts of one whole): shown when every month shows.
  const eventCount = (figure: string): Count => {
    const monthly = months.map((m) => raw(figure, m, 'all'))
    return countOverMonths(
      monthly,
      monthly.reduce((s, n) => s + n, 0),
    )
  }

  return {
    period,
    generatedAt: now.toISOString(),
    funnel: {
      topics,
      stages: {
        proposed: topics.total,
        approved: eventCount('approved'),
        started: eventCount('started'),
        concluded: eventCount('concluded'),
      },
      applications,
      acceptanceRate: rateOf(cellOf(applications, 'accepted'), applications.total),
      menteesApplied: matched.total,
      menteesMatched: cellOf(matched, 'matched'),
      matchRate: rateOf(cellOf(matched, 'matched'), matched.total),
      timeToMatch: duration(periodDurations, 'timeToMatch', null),
    },
    timing: {
      review: duration(periodDurations, 'review', null),
      answer: duration(periodDurations, 'answer', null),
      proposedWaiting: now_.proposedWaiting,
      pendingWaiting: now_.pendingWaiting,
      oldestProposed: waiting.proposed.map((w) => waitingItem(w, now)),
      oldestPending: waiting.pending.map((w) => waitingItem(w, now)),
    },
    capacity: {
      openPlaces: suppressCount(now_.openPlaces),
      filledPlaces: suppressCount(now_.filledPlaces),
      openTopics: suppress(
        [
          { key: 'with room', count: now_.openWithRoom },
          { key: 'full', count: now_.openFull },
        ],
        now_.openWithRoom + now_.openFull,
      ),
      menteesWaiting: suppressCount(now_.menteesWaiting),
    },
    demand: demandOf(now_),
    outcomes: {
      mentorRatings: breakdown('mentorRatings', RATING_KEYS, months).period,
      menteeRatings: breakdown('menteeRatings', RATING_KEYS, months).period,
      concluded: feedback.total,
      concludedWithFeedback: cellOf(feedback, 'with feedback'),
      feedbackShare: rateOf(cellOf(feedback, 'with feedback'), feedback.total),
    },
    trends: trendMonths.map((m) => {
      const t = breakdown('topics', TOPIC_STATUS_KEYS, [m]).period
      const a = breakdown('applications', APPLICATION_STATUS_KEYS, [m]).period
      const mm = nonAdditive(
        [{ applied: raw('menteesApplied', m, 'all'), matched: raw('menteesMatched', m, 'all') }],
        { applied: raw('menteesApplied', m, 'all'), matched: raw('menteesMatched', m, 'all') },
      )
      const f = feedbackSplit([
        {
          concluded: raw('concluded', m, 'all'),
          withFeedback: raw('concludedWithFeedback', m, 'all'),
        },
      ])
      return {
        month: m,
        topicsProposed: t.total,
        applications: a.total,
        accepted: cellOf(a, 'accepted'),
        matchRate: rateOf(cellOf(mm, 'matched'), mm.total),
        reviewMedianDays: duration(trendDurations, 'review', m).medianDays,
        answerMedianDays: duration(trendDurations, 'answer', m).medianDays,
        concluded: f.total,
        feedbackShare: rateOf(cellOf(f, 'with feedback'), f.total),
      }
    }),
  }
}

function trendStart(period: Period): string {
  const end = new Date(`${period.to.slice(0, 7)}-01T00:00:00Z`)
  end.setUTCMonth(end.getUTCMonth() - (TREND_MONTHS - 1))
  const start = end.toISOString().slice(0, 10)
  return start < period.from ? start : period.from
}

function rawCounts(rows: MonthlyCount[]) {
  const map = new Map<string, number>()
  for (const r of rows) map.set(`${r.figure}|${r.month}|${r.key}`, r.n)
  return (figure: string, month: string, key: string) => map.get(`${figure}|${month}|${key}`) ?? 0
}

/**
 * People who applied, split into matched and not matched: distinct people do not add up over
 * months, so the period's own counts are used, hidden when any month hides them.
 */
function nonAdditive(
  monthly: { applied: number; matched: number }[],
  period: { applied: number; matched: number },
) {
  const cells = (x: { applied: number; matched: number }): RawCell[] => [
    { key: 'matched', count: x.matched },
    { key: 'not matched', count: x.applied - x.matched },
  ]
  const forced = new Set<string>()
  let totalHidden = false
  for (const m of monthly) {
    const shown = suppress(cells(m), m.applied)
    for (const c of shown.cells) if (c.count === null) forced.add(c.key)
    if (shown.total === null) totalHidden = true
  }
  return suppress(cells(period), totalHidden ? null : period.applied, forced)
}

/** Concluded topics split into with and without feedback, over months (additive). */
function feedbackSplit(monthly: { concluded: number; withFeedback: number }[]): Breakdown {
  return suppressOverMonths(
    monthly.map((m) => ({
      cells: [
        { key: 'with feedback', count: m.withFeedback },
        { key: 'without feedback', count: m.concluded - m.withFeedback },
      ],
      total: m.concluded,
    })),
    ['with feedback', 'without feedback'],
  ).period
}

function duration(
  rows: DurationRow[],
  figure: DurationRow['figure'],
  month: string | null,
): InsightsDuration {
  const row = rows.find((r) => r.figure === figure && r.month === month)
  if (!row || row.n < MIN_GROUP_SIZE)
    return { count: row && isSmall(row.n) ? null : 0, medianDays: null, p90Days: null }
  return { count: row.n, medianDays: row.median, p90Days: row.p90 }
}

function waitingItem(w: WaitingItem, now: Date) {
  const ageDays = Math.max(
    0,
    Math.round(((now.getTime() - w.since.getTime()) / 86_400_000) * 10) / 10,
  )
  return { id: w.id, topicId: w.topicId, subject: w.subject, since: w.since.toISOString(), ageDays }
}

function demandOf(s: Awaited<ReturnType<typeof snapshot>>): Insights['demand'] {
  const people = suppress(
    s.byInterest.map((r) => ({ key: r.key, count: r.people })),
    null,
  )
  const offered = suppress(
    s.byInterest.map((r) => ({ key: r.key, count: r.openTopics })),
    null,
  )
  const levels = SENIORITY_KEYS.map(
    (key) => s.bySeniority.find((r) => r.key === key) ?? { key, people: 0, openPlaces: 0 },
  )
  const levelPeople = suppress(
    levels.map((r) => ({ key: r.key, count: r.people })),
    levels.reduce((sum, r) => sum + r.people, 0),
  )
  const levelPlaces = suppress(
    levels.map((r) => ({ key: r.key, count: r.openPlaces })),
    null,
  )
  return {
    byInterest: s.byInterest.map((r, i) => ({
      key: r.key,
      people: people.cells[i]?.count ?? null,
      openTopics: offered.cells[i]?.count ?? null,
    })),
    bySeniority: levels.map((r, i) => ({
      key: r.key,
      people: levelPeople.cells[i]?.count ?? null,
      openPlaces: levelPlaces.cells[i]?.count ?? null,
    })),
  }
}
