import type { Preferences } from '../../shared/preferences.ts'
import type { ProgrammeSettings } from '../../shared/programme-settings.ts'
import type { SyncTable } from '../../shared/sync.ts'
import type { Db } from '../db/connect.ts'
import { invitationVisibleTo } from '../invitations/queries.ts'
import { readPreferences as readStoredPreferences } from '../notifications/queries.ts'
import { readProgrammeSettings } from '../settings/queries.ts'
import { visibleTo } from '../topics/queries.ts'
import { applicationVisibleTo, type Pass, written } from './tables.ts'

export type Removal = { id: string; tbl: SyncTable; rowId: string }

/**
 * Rows that left the viewer's view in a pass: entries of `sync_removals`
 * (hard deletes, topics no longer public) meant for the viewer, sent only
 * while the viewer cannot see the row now, so an entry never removes a row
 * that came back. A first pass sends none: the client has nothing to remove.
 */
export async function readRemovals(
  db: Db,
  pass: Pass,
  after: string | undefined,
  limit: number,
): Promise<{ key: string; row: Removal }[]> {
  if (pass.from === '0') return []
  const { id: me, isAdmin } = pass.viewer
  const visibleTopic = visibleTo(db, pass.viewer)
  const rows = await db<Removal[]>`
    SELECT r.id::text AS id, r.tbl, r.row_id AS "rowId"
    FROM sync_removals r
    WHERE ${written(db, pass, 'r.sync_xid')}
      ${after === undefined ? db`` : db`AND r.id > ${after}::bigint`}
      AND r.tbl NOT IN ('notification_preferences', 'programme_settings')
      AND (r.audience IS NULL OR ${me}::uuid = ANY (r.audience) ${isAdmin ? db`OR r.admins` : db``})
      AND NOT CASE r.tbl
        WHEN 'topics' THEN EXISTS (
          SELECT 1 FROM topics t WHERE t.id = r.row_id::uuid AND ${visibleTopic})
        WHEN 'applications' THEN EXISTS (
          SELECT 1 FROM applications a JOIN topics t ON t.id = a.topic_id
          WHERE a.id = r.row_id::uuid AND ${applicationVisibleTo(db, pass.viewer)})
        WHEN 'feedback' THEN EXISTS (
          SELECT 1 FROM feedback f JOIN topics t ON t.id = f.topic_id
          WHERE f.id = r.row_id::uuid AND ${visibleTopic})
        WHEN 'notifications' THEN EXISTS (
          SELECT 1 FROM notifications n WHERE n.id = r.row_id::uuid AND n.user_id = ${me})
        WHEN 'users' THEN EXISTS (SELECT 1 FROM users u WHERE u.id = r.row_id::uuid)
        WHEN 'interests' THEN EXISTS (SELECT 1 FROM interests i WHERE i.name = r.row_id)
        WHEN 'dismissals' THEN EXISTS (
          SELECT 1 FROM topic_dismissals d WHERE d.user_id = ${me} AND d.topic_id = r.row_id::uuid)
        WHEN 'invitations' THEN EXISTS (
          SELECT 1 FROM invitations i WHERE i.id = r.row_id::uuid AND ${invitationVisibleTo(db, me)})
        ELSE false
      END
    ORDER BY r.id LIMIT ${limit}`
  return rows.map((row) => ({ key: row.id, row }))
}

/** The feedback of topics that left the viewer's view leaves with them. */
export async function feedbackOfTopics(db: Db, topicIds: readonly string[]): Promise<string[]> {
  if (topicIds.length === 0) return []
  const rows = await db<{ id: string }[]>`
    SELECT id FROM feedback WHERE topic_id = ANY (${db.array([...topicIds])}::uuid[]) ORDER BY id`
  return rows.map((r) => r.id)
}

/**
 * The viewer's preferences when a pass changed them (or on a first pass),
 * as GET /api/user/notification-preferences answers them; else null.
 */
export async function readPreferences(db: Db, pass: Pass): Promise<Preferences | null> {
  const me = pass.viewer.id
  if (pass.from !== '0') {
    const [changed] = await db<{ changed: boolean }[]>`
      SELECT EXISTS (
          SELECT 1 FROM notification_preferences
          WHERE user_id = ${me} AND ${written(db, pass, 'sync_xid')})
        OR EXISTS (
          SELECT 1 FROM sync_removals
          WHERE tbl = 'notification_preferences' AND row_id = ${me}::text
            AND ${written(db, pass, 'sync_xid')}) AS changed`
    if (!changed?.changed) return null
  }
  return readStoredPreferences(db, me)
}

/**
 * The programme settings when a pass changed them (a setting written or
 * deleted, or the person named as the last to change them renamed), or on a
 * first pass, as GET /api/admin/settings answers them; else null.
 */
export async function readSettings(db: Db, pass: Pass): Promise<ProgrammeSettings | null> {
  if (pass.from !== '0') {
    const [changed] = await db<{ changed: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM programme_settings WHERE ${written(db, pass, 'sync_xid')})
        OR EXISTS (
          SELECT 1 FROM sync_removals
          WHERE tbl = 'programme_settings' AND ${written(db, pass, 'sync_xid')})
        OR EXISTS (
          SELECT 1 FROM programme_settings s JOIN users u ON u.id = s.updated_by
          WHERE ${written(db, pass, 'u.sync_xid')}) AS changed`
    if (!changed?.changed) return null
  }
  return readProgrammeSettings(db)
}
