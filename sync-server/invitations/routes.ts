import { Hono } from 'hono'
import { z } from 'zod'
import {
  checkDeclineInvitation,
  checkInvite,
  createInvitationSchema,
  type Invitation,
  invitationSchema,
} from '../../shared/invitation.ts'
import { callerOn, requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { ApiError } from '../http/errors.ts'
import { body } from '../http/input.ts'
import { route } from '../http/route.ts'
import { enforce, found } from '../http/validate.ts'
import { messages } from '../notifications/messages.ts'
import { notify } from '../notifications/notify.ts'
import { lockVisibleTopic } from '../topics/queries.ts'
import { findUserById } from '../users/queries.ts'
import { getInvitation, listInvitations } from './queries.ts'

const NOT_FOUND = 'Invitation not found'

/** /api/topics/{id}/invitations: a mentor invites a person to apply. */
export const topicInvitationRoutes = new Hono<AppEnv>()

/** /api/invitations: the caller's invitations, and declining one. */
export const invitationRoutes = new Hono<AppEnv>()

topicInvitationRoutes.post(
  '/:id/invitations',
  route({
    tag: 'Invitations',
    errors: [401, 403, 404, 409],
    summary: 'Invite a person to apply',
    description:
      'The mentor of an approved topic with a free place invites a person who is looking for a mentor to apply, and the person is notified. One invitation per person and topic, ever (also under concurrent requests): a second, or one to a person who already applied, answers 409. An invitation never accepts anyone: the person applies as usual. An optional client-chosen id (UUID) lets an offline client refer to it before it syncs. A topic the caller may not see, or an unknown menteeId, answers 404.',
    response: { status: 201, schema: invitationSchema, description: 'The invitation' },
  }),
  body(createInvitationSchema),
  async (c) => {
    const { user, actor, id, db } = callerOn(c, 'Topic not found')
    // The topic row is locked first: invitations to one topic are decided one at a time.
    const topic = await lockVisibleTopic(db, actor, id)
    const input = await c.var.body()
    const invitee = found(await findUserById(db, input.menteeId), 'User not found')
    const [state] = await db<{ alreadyInvited: boolean; alreadyApplied: boolean }[]>`
    SELECT
      EXISTS (SELECT 1 FROM invitations WHERE topic_id = ${id} AND mentee_id = ${invitee.id})
        AS "alreadyInvited",
      EXISTS (SELECT 1 FROM applications WHERE topic_id = ${id} AND mentee_id = ${invitee.id})
        AS "alreadyApplied"`
    enforce(
      checkInvite(actor, topic, invitee, {
        alreadyInvited: state?.alreadyInvited ?? false,
        alreadyApplied: state?.alreadyApplied ?? false,
      }),
    )
    const [created] = await db<{ id: string }[]>`
    INSERT INTO invitations (id, topic_id, mentee_id, mentor_id)
    VALUES (${input.id ?? db`gen_random_uuid()`}, ${id}, ${invitee.id}, ${topic.mentorId})
    ON CONFLICT DO NOTHING
    RETURNING id`
    if (!created) throw new ApiError(409, 'An invitation with this id already exists.')
    const mentor = found(await findUserById(db, user.id), 'User not found')
    await notify(db, [invitee.id], messages.invitation(topic, mentor))
    return c.json(found(await getInvitation(db, created.id), NOT_FOUND), 201)
  },
)

invitationRoutes.get(
  '/',
  route({
    tag: 'Invitations',
    errors: [401],
    summary: "The caller's invitations",
    description: 'Invitations the caller sent (as a topic’s mentor) and received.',
    response: {
      status: 200,
      schema: z.array(invitationSchema),
      description: 'Invitations, newest first',
    },
  }),
  async (c) => {
    const user = requireUser(c)
    return c.json(await listInvitations(c.get('db'), user.id))
  },
)

invitationRoutes.post(
  '/:id/decline',
  route({
    tag: 'Invitations',
    errors: [401, 403, 404, 409],
    summary: 'Decline an invitation',
    description:
      'The invited person declines an open invitation; the mentor sees it declined. Declining twice answers 409; the mentor declining answers 403. Only the invited person and the mentor may know it exists (404 for others). No body.',
    response: { status: 200, schema: invitationSchema, description: 'The declined invitation' },
  }),
  async (c) => {
    const { actor, id, db } = callerOn(c, NOT_FOUND)
    const [invitation] = await db<Pick<Invitation, 'menteeId' | 'mentorId' | 'status'>[]>`
    SELECT mentee_id AS "menteeId", mentor_id AS "mentorId", status
    FROM invitations WHERE id = ${id} FOR UPDATE`
    if (!invitation || (invitation.menteeId !== actor.id && invitation.mentorId !== actor.id)) {
      throw new ApiError(404, NOT_FOUND)
    }
    enforce(checkDeclineInvitation(actor, invitation))
    await db`UPDATE invitations SET status = 'declined', updated_at = now() WHERE id = ${id}`
    return c.json(found(await getInvitation(db, id), NOT_FOUND))
  },
)
