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

/** Who changed something, as the settings screen shows them. */
const changedBySchema = z.object({ id: z.uuid(), username: z.string(), full_name: z.string() })

/** GET /api/admin/settings, and what a pull syncs to every device. */
export const programmeSettingsSchema = z.object({
  matchWeights: matchWeightsSchema,
  /** The last change; null while the programme runs on the defaults. */
  updatedAt: z.iso.datetime({ offset: true }).nullable(),
  updatedBy: changedBySchema.nullable(),
})
export type ProgrammeSettings = z.infer<typeof programmeSettingsSchema>

export const DEFAULT_PROGRAMME_SETTINGS: ProgrammeSettings = {
  matchWeights: DEFAULT_MATCH_WEIGHTS,
  updatedAt: null,
  updatedBy: null,
}

/** PATCH /api/admin/settings: the settings to change; what is left out stays. */
export const updateProgrammeSettingsSchema = z
  .strictObject({ matchWeights: matchWeightsSchema.optional() })
  .refine((v) => Object.keys(v).length > 0, { error: 'Nothing to change' })

/** One logged change (GET /api/admin/settings/changes, newest first). */
export const settingsChangeSchema = z.object({
  id: z.uuid(),
  setting: z.enum(['matchWeights']),
  before: z.unknown(),
  after: z.unknown(),
  changedAt: z.iso.datetime({ offset: true }),
  changedBy: changedBySchema,
})
export type SettingsChange = z.infer<typeof settingsChangeSchema>
