import { z } from 'zod'

// The answer of GET /api/admin/insights: the figures of docs/insights.md. A
// null count is a group of fewer than 5 people (shared/insights.ts).

const count = z.number().int().nonnegative().nullable()
const rate = z.number().min(0).max(1).nullable()
const cell = z.object({ key: z.string(), count })
const breakdown = z.object({ total: count, cells: z.array(cell) })

/** Median and 90th percentile in days, over `count` items; null when fewer than 5. */
const duration = z.object({
  count,
  medianDays: z.number().nonnegative().nullable(),
  p90Days: z.number().nonnegative().nullable(),
})

const waiting = z.object({
  id: z.uuid(),
  /** The topic to open: the topic itself, or the one applied to. */
  topicId: z.uuid(),
  subject: z.string(),
  since: z.string(),
  ageDays: z.number().nonnegative(),
})

export const insightsSchema = z.object({
  period: z.object({ from: z.string(), to: z.string() }),
  generatedAt: z.string(),
  funnel: z.object({
    /** Topics proposed in the period, by their status now. */
    topics: breakdown,
    /** Topics proposed, approved, started and concluded in the period (events of the period). */
    stages: z.object({ proposed: count, approved: count, started: count, concluded: count }),
    /** Applications made in the period, by their status now. */
    applications: breakdown,
    acceptanceRate: rate,
    menteesApplied: count,
    menteesMatched: count,
    /** menteesMatched / menteesApplied; 0.7 and above is healthy. */
    matchRate: rate,
    timeToMatch: duration,
  }),
  timing: z.object({
    review: duration,
    answer: duration,
    /** Work queues, not groups of people: always shown, as the oldest items are. */
    proposedWaiting: z.number().int().nonnegative(),
    pendingWaiting: z.number().int().nonnegative(),
    oldestProposed: z.array(waiting),
    oldestPending: z.array(waiting),
  }),
  capacity: z.object({
    openPlaces: count,
    filledPlaces: count,
    openTopics: breakdown,
    menteesWaiting: count,
  }),
  demand: z.object({
    byInterest: z.array(z.object({ key: z.string(), people: count, openTopics: count })),
    bySeniority: z.array(z.object({ key: z.string(), people: count, openPlaces: count })),
  }),
  outcomes: z.object({
    mentorRatings: breakdown,
    menteeRatings: breakdown,
    concluded: count,
    concludedWithFeedback: count,
    feedbackShare: rate,
  }),
  trends: z.array(
    z.object({
      month: z.string(),
      topicsProposed: count,
      applications: count,
      accepted: count,
      matchRate: rate,
      reviewMedianDays: z.number().nonnegative().nullable(),
      answerMedianDays: z.number().nonnegative().nullable(),
      concluded: count,
      feedbackShare: rate,
    }),
  ),
})

export type Insights = z.infer<typeof insightsSchema>
export type InsightsBreakdown = z.infer<typeof breakdown>
export type InsightsDuration = z.infer<typeof duration>

/** Keys of the breakdowns, in the order the screen and CSV files list them. */
export const TOPIC_STATUS_KEYS = [
  'proposed',
  'rejected',
  'approved',
  'started',
  'concluded',
] as const
export const APPLICATION_STATUS_KEYS = ['pending', 'accepted', 'rejected'] as const
export const RATING_KEYS = ['1', '2', '3', '4', '5'] as const
export const SENIORITY_KEYS = ['junior', 'mid', 'senior', 'not given'] as const

/** The healthy match rate, after Mentorloop. */
export const HEALTHY_MATCH_RATE = 0.7

/** The CSV exports, by file name. */
export const EXPORT_FILES = ['topics', 'applications', 'users', 'feedback'] as const
export type ExportFile = (typeof EXPORT_FILES)[number]
