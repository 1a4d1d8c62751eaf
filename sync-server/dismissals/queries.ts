import type { Db } from '../db/connect.ts'

/** Columns of a "Not interested" mark `d` as the API answers it. */
export function dismissalColumns(db: Db) {
  return db`d.topic_id AS "topicId", d.dismissed, d.updated_at AS "updatedAt"`
}
