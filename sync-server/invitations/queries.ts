import type { Invitation } from '../../shared/invitation.ts'
import type { Db } from '../db/connect.ts'

/** Columns of an invitation `i` as the API answers it. */
export function invitationColumns(db: Db) {
  return db`
    i.id, i.topic_id AS "topicId", i.mentee_id AS "menteeId", i.mentor_id AS "mentorId", i.status,
    i.created_at AS "createdAt", i.updated_at AS "updatedAt"`
}

/** Invitations `i` the viewer may see: those they sent (as the topic's mentor) or received. */
export function invitationVisibleTo(db: Db, viewerId: string) {
  return db`(i.mentee_id = ${viewerId} OR i.mentor_id = ${viewerId})`
}

export async function getInvitation(db: Db, id: string): Promise<Invitation | undefined> {
  const [invitation] = await db<Invitation[]>`
    SELECT ${invitationColumns(db)} FROM invitations i WHERE i.id = ${id}`
  return invitation
}

/** The viewer's invitations, sent and received, newest first. */
export async function listInvitations(db: Db, viewerId: string): Promise<Invitation[]> {
  return db<Invitation[]>`
    SELECT ${invitationColumns(db)} FROM invitations i
    WHERE ${invitationVisibleTo(db, viewerId)}
    ORDER BY i.created_at DESC, i.id`
}
