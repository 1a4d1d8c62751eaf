import type { Application } from '../../shared/application.ts'
import type { Db } from '../db/connect.ts'

type ApplicationFilter = { topicId?: string; menteeId?: string; applicationId?: string }

/**
 * Columns of an application as the API answers it (spec section 3), with
 * `mentee` and `topic`; read FROM `applicationSource`.
 */
export function applicationColumns(db: Db) {
  return db`
    a.id, a.topic_id AS "topicId", a.status, a.rejection_reason AS "rejectionReason",
    a.created_at AS "createdAt", a.updated_at AS "updatedAt",
    json_build_object('id', e.id, 'username', e.username, 'full_name', e.full_name,
                      'seniority', e.seniority) AS mentee,
    json_build_object('id', t.id, 'subject', t.subject, 'status', t.status,
      'mentor', json_build_object('id', m.id, 'username', m.username, 'full_name', m.full_name)) AS topic`
}

/** An application `a` with its mentee `e`, topic `t` and the topic's mentor `m`. */
export function applicationSource(db: Db) {
  return db`
    applications a
      JOIN users e ON e.id = a.mentee_id
      JOIN topics t ON t.id = a.topic_id
      JOIN users m ON m.id = t.mentor_id`
}

/** Applications as the API answers them. */
export async function listApplications(db: Db, filter: ApplicationFilter): Promise<Application[]> {
  return db<Application[]>`
    SELECT ${applicationColumns(db)}
    FROM ${applicationSource(db)}
    WHERE true
      ${filter.topicId ? db`AND a.topic_id = ${filter.topicId}` : db``}
      ${filter.menteeId ? db`AND a.mentee_id = ${filter.menteeId}` : db``}
      ${filter.applicationId ? db`AND a.id = ${filter.applicationId}` : db``}
    ORDER BY a.created_at DESC, a.id`
}

/**
 * The application that `write` wrote (an INSERT or UPDATE of applications
 * `RETURNING *`), as the API answers it: read in the same statement, not by
 * a SELECT after it. Undefined when it wrote none.
 */
export async function writeApplication(
  db: Db,
  write: ReturnType<Db>,
): Promise<Application | undefined> {
  const [application] = await db<Application[]>`
    WITH a AS (${write})
    SELECT ${applicationColumns(db)}
    FROM a
      JOIN users e ON e.id = a.mentee_id
      JOIN topics t ON t.id = a.topic_id
      JOIN users m ON m.id = t.mentor_id`
  return application
}

export async function getApplication(db: Db, id: string): Promise<Application | undefined> {
  const [application] = await listApplications(db, { applicationId: id })
  return application
}
