import { z } from 'zod'

/**
 * Programme settings (issues 17 and 18): what administrators tune for their
 * own programme, stored in the database, applied by every instance at once,
 * synced to every device (the offline scoring needs the weights), and every
 * change logged with who made it and when.
 */

/** The five named factors of a match score (shared/matching.ts), in the order reasons are given. */
export const MATCH_FACTORS = [
  'interests',
  'seniority',
  'location',
  'capacity',
  'responsiveness',
] as const
export type MatchFactor = (typeof MATCH_FACTORS)[number]

export const MATCH_FACTOR_LABELS: Record<MatchFactor, string> = {
  interests: 'Shared interests',
  seniority: 'Seniority',
  location: 'Location',
  capacity: 'Free places',
  responsiveness: 'How quickly the mentor answers',
}

export const MATCH_WEIGHT_MAX = 10

const weight = (factor: MatchFactor) =>
  z
    .number({ error: `The weight of ${factor} must be a number` })
    .int(`The weight of ${factor} must be a whole number`)
    .min(0, `The weight of ${factor} must be from 0 to ${MATCH_WEIGHT_MAX}`)
    .max(MATCH_WEIGHT_MAX, `The weight of ${factor} must be from 0 to ${MATCH_WEIGHT_MAX}`)

/** How much each factor counts; a score is the weighted mean of the factors, so only ratios matter. */
export const matchWeightsSchema = z
  .strictObject({
    interests: weight('interests'),
    seniority: weight('seniority'),
    location: weight('location'),
    capacity: weight('capacity'),
    responsiveness: weight('responsiveness'),
  })
  .refine((w) => w.interests > 0, {
    error:
      'Shared interests must count (a weight above 0): recommendations are topics that share them',
    path: ['interests'],
  })
export type MatchWeights = z.infer<typeof matchWeightsSchema>

export const DEFAULT_MATCH_WEIGHTS: MatchWeights = {
  interests: 6,
  seniority: 2,
  location: 1,
  capacity: 1,
  responsiveness: 1,
}

/** The reminder stages of issue 18, each a number of days or null (off). */
export const REMINDER_STAGES = [
  'mentorAnswerDays',
  'menteeStillOpenDays',
  'startDays',
  'feedbackDays',
  'checkInDays',
  'checkInEscalationDays',
] as const
export type ReminderStage = (typeof REMINDER_STAGES)[number]

export const REMINDER_STAGE_LABELS: Record<ReminderStage, { label: string; description: string }> =
  {
    mentorAnswerDays: {
      label: 'Remind the mentor of an unanswered application',
      description: 'Days an application waits before its mentor is reminded.',
    },
    menteeStillOpenDays: {
      label: 'Tell the mentee their application is still open',
      description:
        'Days an application waits before its mentee is told, and it shows in "Waiting for an answer".',
    },
    startDays: {
      label: 'Remind the mentor to start',
      description:
        'Days after a mentee was accepted before the mentor is reminded to start the topic.',
    },
    feedbackDays: {
      label: 'Ask for feedback',
      description: 'Days after a topic concluded before those who left no feedback are reminded.',
    },
    checkInDays: {
      label: 'Ask how it is going',
      description: 'Days without activity on a started topic before mentor and mentees are asked.',
    },
    checkInEscalationDays: {
      label: 'Show on "Needs a check-in"',
      description: 'Days without activity before a started topic shows to administrators.',
    },
  }

export const REMINDER_DAYS_MAX = 365
const days = (stage: ReminderStage) =>
  z
    .number({ error: `${stage} must be a number of days or null (off)` })
    .int(`${stage} must be a whole number of days`)
    .min(1, `${stage} must be from 1 to ${REMINDER_DAYS_MAX} days, or null (off)`)
    .max(REMINDER_DAYS_MAX, `${stage} must be from 1 to ${REMINDER_DAYS_MAX} days, or null (off)`)
    .nullable()

export const reminderSettingsSchema = z
  .strictObject({
    mentorAnswerDays: days('mentorAnswerDays'),
    menteeStillOpenDays: days('menteeStillOpenDays'),
    startDays: days('startDays'),
    /** Remind the mentor to conclude once a started topic has run the programme length. */
    concludeAtProgrammeEnd: z.boolean({ error: 'concludeAtProgrammeEnd must be true or false' }),
    feedbackDays: days('feedbackDays'),
    checkInDays: days('checkInDays'),
    checkInEscalationDays: days('checkInEscalationDays'),
  })
  .refine(
    (r) =>
      r.checkInDays === null ||
      r.checkInEscalationDays === null ||
      r.checkInEscalationDays > r.checkInDays,
    {
      error: 'Showing on "Needs a check-in" must come after asking how it is going',
      path: ['checkInEscalationDays'],
    },
  )
export type ReminderSettings = z.infer<typeof reminderSettingsSchema>

export const DEFAULT_REMINDER_SETTINGS: ReminderSettings = {
  mentorAnswerDays: 3,
  menteeStillOpenDays: 7,
  startDays: 14,
  concludeAtProgrammeEnd: true,
  feedbackDays: 3,
  checkInDays: 21,
  checkInEscalationDays: 45,
}

export const PROGRAMME_LENGTH_MONTHS_MAX = 36
/** How long a mentorship runs (spec: typically 3–6 months); a started topic older than this is reminded to conclude. */
export const programmeLengthMonthsSchema = z
  .number({ error: 'The programme length must be a number of months' })
  .int('The programme length must be a whole number of months')
  .min(1, `The programme length must be from 1 to ${PROGRAMME_LENGTH_MONTHS_MAX} months`)
  .max(
    PROGRAMME_LENGTH_MONTHS_MAX,
    `The programme length must be from 1 to ${PROGRAMME_LENGTH_MONTHS_MAX} months`,
  )
const DEFAULT_PROGRAMME_LENGTH_MONTHS = 6

export const PENDING_APPLICATION_LIMIT_MAX = 50
/** How many pending applications a mentee may have at once; null: no limit (the default). */
export const pendingApplicationLimitSchema = z
  .number({ error: 'The limit of pending applications must be a number or null (no limit)' })
  .int('The limit of pending applications must be a whole number')
  .min(1, `The limit of pending applications must be from 1 to ${PENDING_APPLICATION_LIMIT_MAX}`)
  .max(
    PENDING_APPLICATION_LIMIT_MAX,
    `The limit of pending applications must be from 1 to ${PENDING_APPLICATION_LIMIT_MAX}`,
  )
  .nullable()

/** Who changed something, as the settings screen shows them. */
const changedBySchema = z.object({ id: z.uuid(), username: z.string(), full_name: z.string() })

/** GET /api/admin/settings, and what a pull syncs to every device. */
export const programmeSettingsSchema = z.object({
  matchWeights: matchWeightsSchema,
  reminders: reminderSettingsSchema,
  programmeLengthMonths: programmeLengthMonthsSchema,
  pendingApplicationLimit: pendingApplicationLimitSchema,
  /** The last change; null while the programme runs on the defaults. */
  updatedAt: z.iso.datetime({ offset: true }).nullable(),
  updatedBy: changedBySchema.nullable(),
})
export type ProgrammeSettings = z.infer<typeof programmeSettingsSchema>

export const DEFAULT_PROGRAMME_SETTINGS: ProgrammeSettings = {
  matchWeights: DEFAULT_MATCH_WEIGHTS,
  reminders: DEFAULT_REMINDER_SETTINGS,
  programmeLengthMonths: DEFAULT_PROGRAMME_LENGTH_MONTHS,
  pendingApplicationLimit: null,
  updatedAt: null,
  updatedBy: null,
}

/** PATCH /api/admin/settings: the settings to change; what is left out stays. */
export const updateProgrammeSettingsSchema = z
  .strictObject({
    matchWeights: matchWeightsSchema.optional(),
    reminders: reminderSettingsSchema.optional(),
    programmeLengthMonths: programmeLengthMonthsSchema.optional(),
    pendingApplicationLimit: pendingApplicationLimitSchema.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { error: 'Nothing to change' })

/** One logged change (GET /api/admin/settings/changes, newest first). */
export const settingsChangeSchema = z.object({
  id: z.uuid(),
  setting: z.enum([
    'matchWeights',
    'reminders',
    'programmeLengthMonths',
    'pendingApplicationLimit',
  ]),
  before: z.unknown(),
  after: z.unknown(),
  changedAt: z.iso.datetime({ offset: true }),
  changedBy: changedBySchema,
})
export type SettingsChange = z.infer<typeof settingsChangeSchema>
