import type { z } from 'zod'
import {
  DEFAULT_PROGRAMME_SETTINGS,
  matchWeightsSchema,
  type ProgrammeSettings,
  pendingApplicationLimitSchema,
  programmeLengthMonthsSchema,
  reminderSettingsSchema,
} from '../../shared/programme-settings.ts'
import type { Db } from '../db/connect.ts'

/** Each setting stored in `programme_settings`, by key, with the schema its stored value must pass. */
const SETTING_SCHEMAS = {
  matchWeights: matchWeightsSchema,
  reminders: reminderSettingsSchema,
  programmeLengthMonths: programmeLengthMonthsSchema,
  pendingApplicationLimit: pendingApplicationLimitSchema,
} satisfies { [K in keyof ProgrammeSettings]?: z.ZodType<ProgrammeSettings[K]> }

/** The settings stored in `programme_settings`, by key; a missing row is the default. */
export const SETTING_KEYS = [
  'matchWeights',
  'reminders',
  'programmeLengthMonths',
  'pendingApplicationLimit',
] as const satisfies readonly (keyof typeof SETTING_SCHEMAS)[]
export type SettingKey = (typeof SETTING_KEYS)[number]

type Row = {
  key: string
  value: unknown
  updatedAt: Date
  updatedBy: ProgrammeSettings['updatedBy']
}

/**
 * The programme settings as GET /api/admin/settings answers them (and a pull
 * syncs them): each setting from its row or its default, and the last change.
 * A stored value that no longer passes its schema counts as the default.
 */
export async function readProgrammeSettings(db: Db): Promise<ProgrammeSettings> {
  const rows = await db<Row[]>`
    SELECT s.key, s.value, s.updated_at AS "updatedAt",
      CASE WHEN u.id IS NULL THEN NULL
           ELSE json_build_object('id', u.id, 'username', u.username, 'full_name', u.full_name) END
        AS "updatedBy"
    FROM programme_settings s LEFT JOIN users u ON u.id = s.updated_by
    ORDER BY s.updated_at DESC, s.key`
  const stored = new Map(rows.map((r) => [r.key, r.value]))
  const last = rows[0]
  return {
    matchWeights: storedOrDefault(stored, 'matchWeights'),
    reminders: storedOrDefault(stored, 'reminders'),
    programmeLengthMonths: storedOrDefault(stored, 'programmeLengthMonths'),
    pendingApplicationLimit: storedOrDefault(stored, 'pendingApplicationLimit'),
    updatedAt: last ? last.updatedAt.toISOString() : null,
    updatedBy: last ? last.updatedBy : null,
  }
}

function storedOrDefault<K extends SettingKey>(
  stored: Map<string, unknown>,
  key: K,
): ProgrammeSettings[K] {
  if (!stored.has(key)) return DEFAULT_PROGRAMME_SETTINGS[key]
  const parsed = SETTING_SCHEMAS[key].safeParse(stored.get(key))
  return parsed.success ? (parsed.data as ProgrammeSettings[K]) : DEFAULT_PROGRAMME_SETTINGS[key]
}
