import type postgres from 'postgres'
import type { Actor } from '../../shared/decision.ts'
import type { SyncTable } from '../../shared/sync.ts'
import { applicationColumns, applicationSource } from '../applications/queries.ts'
import type { Db } from '../db/connect.ts'
import { dismissalColumns } from '../dismissals/queries.ts'
import { invitationColumns, invitationVisibleTo } from '../invitations/queries.ts'
import { notificationColumns } from '../notifications/queries.ts'
import { feedbackColumns, topicColumns, visibleTo } from '../topics/queries.ts'
import { userColumns } from '../users/queries.ts'

/**
 * One pass of a pull: the rows of transactions in the id range [from, to).
 * Every transaction below `to` had finished when the pass began. A first pass
 * (`from` 0) sends every visible row.
 */
export type Pass = { from: string; to: string; viewer: Actor }

type Row = Record<string, unknown> & { version: number }

/**
 * Reads up to `limit` rows of one table for a pass, ordered by key, after
 * `after`. Rows are in the shapes the REST reads answer (built from the same
 * column lists and visibility rules; pull.test.ts compares a replica with the
 * REST answers) and each carries the highest version of the rows it is built from.
 *
 * A row counts as changed in a pass when any row it is built from (a topic's
 * mentor, an application's mentee, topic and mentor) was written in the pass,
 * so a renamed mentor reaches every copy of their name. Keyset order by id is
 * safe while rows keep changing: a row can only drop out of a pass (a newer
 * write moves it to a later pass), never join one.
 */
export type TableReader = (
  db: Db,
  pass: Pass,
  after: string | undefined,
  limit: number,
) => Promise<{ key: string; row: Row }[]>

const first = (pass: Pass) => pass.from === '0'

/** Applications `a` (of topic `t`) the viewer may see: their own, their topics', or all for admins. */
export function applicationVisibleTo(db: Db, viewer: Actor) {
  return viewer.isAdmin ? db`true` : db`(a.mentee_id = ${viewer.id} OR t.mentor_id = ${viewer.id})`
}

/** `column` (a sync_xid) was written by a transaction of the pass. */
export function written(db: Db, pass: Pass, column: string) {
  const c = db(column)
  return db`(${c} >= ${pass.from}::xid8 AND ${c} < ${pass.to}::xid8)`
}

function afterId(db: Db, column: string, after: string | undefined) {
  return after === undefined ? db`` : db`AND ${db(column)} > ${after}::uuid`
}

/**
 * The page of a table: on a first pass every row the viewer may see, in key
 * order; later, the rows whose ids `changed` lists (written in the pass), each
 * looked up by its key. The candidates are gathered first through the sync
 * indexes, so a delta costs the same whatever the size of the table: the
 * planner never gets to walk the whole primary key looking for them.
 */
function page(
  db: Db,
  pass: Pass,
  select: postgres.Fragment,
  key: string,
  changed: postgres.Fragment,
  after: string | undefined,
  limit: number,
) {
  if (first(pass))
    return db<Row[]>`${select} ${afterId(db, key, after)} ORDER BY ${db(key)} LIMIT ${limit}`
  return db<Row[]>`
    WITH c AS MATERIALIZED (SELECT DISTINCT id FROM (${changed}) ids
                            WHERE true ${afterId(db, 'id', after)})
    SELECT r.* FROM c CROSS JOIN LATERAL (${select} AND ${db(key)} = c.id LIMIT 1) r
    ORDER BY r.id LIMIT ${limit}`
}

const topics: TableReader = async (db, pass, after, limit) => {
  const select = db`
    SELECT ${topicColumns(db)}, GREATEST(t.version, m.version)::float8 AS version
    FROM topics t JOIN users m ON m.id = t.mentor_id
    WHERE ${visibleTo(db, pass.viewer)}`
  const changed = db`
    SELECT id FROM topics WHERE ${written(db, pass, 'sync_xid')}
    UNION ALL
    SELECT t.id FROM users u JOIN topics t ON t.mentor_id = u.id WHERE ${written(db, pass, 'u.sync_xid')}`
  const rows = await page(db, pass, select, 't.id', changed, after, limit)
  return rows.map((row) => ({ key: row.id as string, row }))
}

/** Applications: the mentee's own, the mentor's topics' and, for administrators, all. */
const applications: TableReader = async (db, pass, after, limit) => {
  const { viewer } = pass
  const select = db`
    SELECT ${applicationColumns(db)},
      GREATEST(a.version, e.version, t.version, m.version)::float8 AS version
    FROM ${applicationSource(db)}
    WHERE ${applicationVisibleTo(db, viewer)}`
  const changed = db`
    SELECT id FROM applications WHERE ${written(db, pass, 'sync_xid')}
    UNION ALL
    SELECT a.id FROM users u JOIN applications a ON a.mentee_id = u.id
    WHERE ${written(db, pass, 'u.sync_xid')}
    UNION ALL
    SELECT a.id FROM topics t JOIN applications a ON a.topic_id = t.id
    WHERE ${written(db, pass, 't.sync_xid')}
    UNION ALL
    SELECT a.id FROM users u JOIN topics t ON t.mentor_id = u.id JOIN applications a ON a.topic_id = t.id
    WHERE ${written(db, pass, 'u.sync_xid')}`
  const rows = await page(db, pass, select, 'a.id', changed, after, limit)
  return rows.map((row) => ({ key: row.id as string, row }))
}

/** Feedback on the topics the viewer may see (GET /api/topics/{id}/feedback). */
const feedback: TableReader = async (db, pass, after, limit) => {
  const select = db`
    SELECT ${feedbackColumns(db)}, GREATEST(f.version, u.version, t.version)::float8 AS version
    FROM feedback f JOIN users u ON u.id = f.user_id JOIN topics t ON t.id = f.topic_id
    WHERE ${visibleTo(db, pass.viewer)}`
  const changed = db`
    SELECT id FROM feedback WHERE ${written(db, pass, 'sync_xid')}
    UNION ALL
    SELECT f.id FROM users u JOIN feedback f ON f.user_id = u.id WHERE ${written(db, pass, 'u.sync_xid')}
    UNION ALL
    SELECT f.id FROM topics t JOIN feedback f ON f.topic_id = t.id WHERE ${written(db, pass, 't.sync_xid')}`
  const rows = await page(db, pass, select, 'f.id', changed, after, limit)
  return rows.map((row) => ({ key: row.id as string, row }))
}

/** The viewer's own notifications, all of them (GET /api/notifications lists the newest 200). */
const notifications: TableReader = async (db, pass, after, limit) => {
  const select = db`
    SELECT ${notificationColumns(db)}, n.version::float8 AS version
    FROM notifications n
    WHERE n.user_id = ${pass.viewer.id}`
  const changed = db`
    SELECT id FROM notifications
    WHERE user_id = ${pass.viewer.id} AND ${written(db, pass, 'sync_xid')}`
  const rows = await page(db, pass, select, 'n.id', changed, after, limit)
  return rows.map((row) => ({ key: row.id as string, row }))
}

/** Every user, as GET /api/users answers them. */
const users: TableReader = async (db, pass, after, limit) => {
  const select = db`SELECT ${userColumns(db)}, u.version::float8 AS version FROM users u WHERE true`
  const changed = db`SELECT id FROM users WHERE ${written(db, pass, 'sync_xid')}`
  const rows = await page(db, pass, select, 'u.id', changed, after, limit)
  return rows.map((row) => ({ key: row.id as string, row }))
}

/** Known interests, by name (GET /api/interests answers the names). */
const interests: TableReader = async (db, pass, after, limit) => {
  const rows = await db<Row[]>`
    SELECT name, version::float8 AS version
    FROM interests
    WHERE true ${after === undefined ? db`` : db`AND name > ${after}`}
      ${first(pass) ? db`` : db`AND ${written(db, pass, 'sync_xid')}`}
    ORDER BY name LIMIT ${limit}`
  return rows.map((row) => ({ key: row.name as string, row }))
}

/** The viewer's own "Not interested" marks, keyed by topic (their own rows only). */
const dismissals: TableReader = async (db, pass, after, limit) => {
  const rows = await db<Row[]>`
    SELECT ${dismissalColumns(db)}, d.version::float8 AS version
    FROM topic_dismissals d
    WHERE d.user_id = ${pass.viewer.id}
      ${after === undefined ? db`` : db`AND d.topic_id > ${after}::uuid`}
      ${first(pass) ? db`` : db`AND ${written(db, pass, 'd.sync_xid')}`}
    ORDER BY d.topic_id LIMIT ${limit}`
  return rows.map((row) => ({ key: row.topicId as string, row }))
}

/** Invitations the viewer sent (as the topic's mentor) or received (GET /api/invitations). */
const invitations: TableReader = async (db, pass, after, limit) => {
  const select = db`
    SELECT ${invitationColumns(db)}, i.version::float8 AS version
    FROM invitations i
    WHERE ${invitationVisibleTo(db, pass.viewer.id)}`
  const changed = db`SELECT id FROM invitations WHERE ${written(db, pass, 'sync_xid')}`
  const rows = await page(db, pass, select, 'i.id', changed, after, limit)
  return rows.map((row) => ({ key: row.id as string, row }))
}

export const TABLE_READERS: Record<SyncTable, TableReader> = {
  topics,
  applications,
  feedback,
  notifications,
  users,
  interests,
  dismissals,
  invitations,
}
