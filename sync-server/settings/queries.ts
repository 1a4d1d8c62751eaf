import {
  DEFAULT_MATCH_WEIGHTS,
  type MatchWeights,
  matchWeightsSchema,
  type ProgrammeSettings,
} from '../../shared/programme-settings.ts'
import type { Db } from '../db/connect.ts'

/** The settings stored in `programme_settings`, by key; a missing row is the default. */
export const SETTING_KEYS = ['matchWeights'] as const
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
  const parsed = matchWeightsSchema.safeParse(stored.get('matchWeights'))
  const matchWeights: MatchWeights = parsed.success ? parsed.data : DEFAULT_MATCH_WEIGHTS
  const last = rows[0]
  return {
    matchWeights,
    updatedAt: last ? last.updatedAt.toISOString() : null,
    updatedBy: last ? last.updatedBy : null,
  }
}
