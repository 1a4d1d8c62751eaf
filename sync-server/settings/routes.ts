import { Hono } from 'hono'
import { z } from 'zod'
import {
  DEFAULT_PROGRAMME_SETTINGS,
  matchWeightsSchema,
  pendingApplicationLimitSchema,
  programmeLengthMonthsSchema,
  programmeSettingsSchema,
  reminderSettingsSchema,
  type SettingsChange,
  settingsChangeSchema,
  updateProgrammeSettingsSchema,
} from '../../shared/programme-settings.ts'
import { requireAdmin } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { body } from '../http/input.ts'
import { route } from '../http/route.ts'
import { readProgrammeSettings, SETTING_KEYS, type SettingKey } from './queries.ts'

/**
 * What the document shows of the PATCH body: JSON Schema cannot say "at least
 * one setting", "interests above 0" or "the check-in escalation after the
 * check-in" as the refinements do, so it shows the interests weight from 1
 * and gives examples of valid bodies (which generated requests use).
 */
const documentedUpdate = z
  .strictObject({
    matchWeights: z
      .strictObject({
        ...matchWeightsSchema.shape,
        interests: matchWeightsSchema.shape.interests.min(1),
      })
      .optional(),
    reminders: reminderSettingsSchema.optional(),
    programmeLengthMonths: programmeLengthMonthsSchema.optional(),
    pendingApplicationLimit: pendingApplicationLimitSchema.optional(),
  })
  .meta({
    examples: [
      { matchWeights: DEFAULT_PROGRAMME_SETTINGS.matchWeights },
      { reminders: { ...DEFAULT_PROGRAMME_SETTINGS.reminders, checkInDays: null } },
      { programmeLengthMonths: 4, pendingApplicationLimit: 3 },
      { pendingApplicationLimit: null },
    ],
  })

const ADMINS_ONLY = 'Only administrators can see or change the programme settings.'

/** /api/admin/settings: programme settings, their changes and their log. */
export const settingsRoutes = new Hono<AppEnv>()

settingsRoutes.get(
  '/',
  route({
    tag: 'Administration',
    errors: [401, 403],
    summary: 'Programme settings',
    description:
      'The settings administrators tune (match weights, reminder thresholds, programme length, the limit of pending applications), the defaults for those never set, and who changed them last. Every device receives them through sync; this read is for administrators.',
    response: { status: 200, schema: programmeSettingsSchema, description: 'The settings' },
  }),
  async (c) => {
    requireAdmin(c, ADMINS_ONLY)
    return c.json(await readProgrammeSettings(c.get('db')))
  },
)

settingsRoutes.patch(
  '/',
  route({
    tag: 'Administration',
    errors: [401, 403],
    summary: 'Change programme settings',
    description:
      'An administrator changes settings; what is left out stays. Each setting whose value really changes is logged once with its value before and after (GET /api/admin/settings/changes). Applies on every instance and device at once.',
    response: { status: 200, schema: programmeSettingsSchema, description: 'The settings now' },
  }),
  body(updateProgrammeSettingsSchema, documentedUpdate),
  async (c) => {
    const user = requireAdmin(c, ADMINS_ONLY)
    const input = await c.var.body()
    const db = c.get('db')
    // One change of the settings at a time, so each logged "before" is the value it replaced.
    await db`SELECT pg_advisory_xact_lock(7312017)`
    const current = await readProgrammeSettings(db)
    for (const key of SETTING_KEYS) {
      const after = input[key]
      if (after === undefined) continue
      const before = current[key] ?? DEFAULT_PROGRAMME_SETTINGS[key]
      if (canonical(before) === canonical(after)) continue
      await db`
      INSERT INTO programme_settings (key, value, updated_at, updated_by)
      VALUES (${key}, ${jsonb(after)}::text::jsonb, now(), ${user.id})
      ON CONFLICT (key) DO UPDATE
        SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`
      await db`
      INSERT INTO programme_settings_changes (key, before, after, changed_by)
      VALUES (${key satisfies SettingKey}, ${jsonb(before)}::text::jsonb, ${jsonb(after)}::text::jsonb, ${user.id})`
    }
    return c.json(await readProgrammeSettings(db))
  },
)

settingsRoutes.get(
  '/changes',
  route({
    tag: 'Administration',
    errors: [401, 403],
    summary: 'Programme settings log',
    description:
      'The last 100 changes of the programme settings, newest first: which setting, its value before and after, who changed it and when.',
    response: {
      status: 200,
      schema: z.array(settingsChangeSchema),
      description: 'Changes, newest first',
    },
  }),
  async (c) => {
    requireAdmin(c, ADMINS_ONLY)
    const db = c.get('db')
    // A change by a user who was deleted since has no author to show: it is left out.
    const rows = await db<SettingsChange[]>`
    SELECT ch.id, ch.key AS setting, ch.before, ch.after, ch.changed_at AS "changedAt",
      json_build_object('id', u.id, 'username', u.username, 'full_name', u.full_name) AS "changedBy"
    FROM programme_settings_changes ch JOIN users u ON u.id = ch.changed_by
    WHERE ch.key = ANY (${db.array([...SETTING_KEYS])}::text[])
    ORDER BY ch.changed_at DESC, ch.id
    LIMIT 100`
    return c.json(rows)
  },
)

/** JSON with object keys sorted, to tell whether two values are the same. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  )
}

/** A value as JSON text (cast ::text::jsonb in SQL): null stays the JSON null (no limit), not SQL NULL. */
function jsonb(value: unknown): string {
  return JSON.stringify(value)
}
