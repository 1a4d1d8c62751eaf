import { z } from 'zod'
import { type Actor, allow, conflict, type Decision, forbid } from './decision.ts'
import { isTopicFull } from './topic.ts'

/**
 * Invitations (issue 17, decision 0037): a mentor with a free place asks a
 * person who is looking for a mentor to apply to one of their topics. One
 * invitation per person and topic, ever; the person may decline it. Applying
 * is the normal application: an invitation never accepts anyone by itself.
 */
const INVITATION_STATUSES = ['open', 'declined'] as const

/** An invitation as the API answers it; seen by the invited person and the topic's mentor. */
export const invitationSchema = z.object({
  id: z.uuid(),
  topicId: z.uuid(),
  menteeId: z.uuid(),
  /** The topic's mentor, who sent it. */
  mentorId: z.uuid(),
  status: z.enum(INVITATION_STATUSES),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
})
export type Invitation = z.infer<typeof invitationSchema>

/** POST /api/topics/{id}/invitations. `id` lets an offline client choose the id. */
export const createInvitationSchema = z.strictObject({
  id: z.uuid('The invitation id must be a UUID').optional(),
  menteeId: z.uuid('menteeId must be the id of a user'),
})

/** What an invitation check needs of the topic. */
type InvitableTopic = {
  mentorId: string
  status: string
  maxMentees: number
  currentMentees: number
}
/** What it needs of the person invited. */
type Invitee = { id: string; lookingForMentor: boolean }

/**
 * May `actor` invite `invitee` to `topic`? `alreadyInvited` and
 * `alreadyApplied` are whether an invitation or an application of this
 * person to this topic exists.
 */
export function checkInvite(
  actor: Actor,
  topic: InvitableTopic,
  invitee: Invitee,
  state: { alreadyInvited: boolean; alreadyApplied: boolean },
): Decision {
  if (topic.mentorId !== actor.id) {
    return forbid('Only the mentor of a topic can invite people to apply.')
  }
  if (topic.status !== 'approved') {
    return conflict('People can be invited only to an approved topic that has not started.')
  }
  if (isTopicFull(topic)) return conflict('This topic has no free place left.')
  if (invitee.id === actor.id) return conflict('You cannot invite yourself to your own topic.')
  if (!invitee.lookingForMentor) {
    return conflict('This person has not said that they are looking for a mentor.')
  }
  if (state.alreadyInvited) return conflict('You have already invited this person to this topic.')
  if (state.alreadyApplied) return conflict('This person has already applied to this topic.')
  return allow
}

/** May `actor` decline `invitation`? Only the person invited, while it is open. */
export function checkDeclineInvitation(
  actor: Actor,
  invitation: Pick<Invitation, 'menteeId' | 'status'>,
): Decision {
  if (invitation.menteeId !== actor.id) {
    return forbid('Only the person invited can decline an invitation.')
  }
  if (invitation.status !== 'open') return conflict('This invitation has already been declined.')
  return allow
}

/** May `actor` see the people who might fit `topic` (GET /api/topics/{id}/candidates)? */
export function checkSeeCandidates(actor: Actor, topic: { mentorId: string }): Decision {
  if (actor.id === topic.mentorId || actor.isAdmin) return allow
  return forbid('Only the mentor of this topic or an administrator can see who might fit it.')
}
