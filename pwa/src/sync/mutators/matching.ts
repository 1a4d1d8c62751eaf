import { dismissInputSchema } from '../../../../shared/dismissal.ts'
import {
  checkDeclineInvitation,
  checkInvite,
  createInvitationSchema,
} from '../../../../shared/invitation.ts'
import {
  DEFAULT_PROGRAMME_SETTINGS,
  type MatchWeights,
  matchWeightsSchema,
} from '../../../../shared/programme-settings.ts'
import { checkAdminister } from '../../../../shared/user.ts'
import type { SyncInvitation } from '../engine/db.ts'
import { readApplicationsOfTopic, readRow } from '../engine/view.ts'
import {
  actorOf,
  enforce,
  found,
  isoNow,
  type MutationContext,
  type Queued,
  queueMutation,
  validate,
} from './mutation.ts'

/** POST /api/topics/{id}/dismissal: "Not interested" (or taking it back) on a recommendation. */
export async function dismissTopic(
  ctx: MutationContext,
  topicId: string,
  dismissed = true,
): Promise<Queued> {
  const data = validate(dismissInputSchema, { dismissed })
  return queueMutation(ctx, async () => {
    const topic = found(await readRow(ctx.db, 'topics', topicId), 'Topic not found')
    const row = { topicId, dismissed: data.dismissed, updatedAt: isoNow(ctx) }
    return {
      kind: 'dismiss-topic',
      method: 'POST',
      path: `/api/topics/${encodeURIComponent(topicId)}/dismissal`,
      body: data,
      label: data.dismissed
        ? `Mark “${topic.subject}” not interesting`
        : `Show “${topic.subject}” in recommendations again`,
      effects: [
        {
          table: 'dismissals',
          rowId: topicId,
          op: { create: { ...row, version: 0 }, set: { dismissed: data.dismissed } },
        },
      ],
      confirmIn: 'dismissals',
    }
  })
}

/** POST /api/topics/{id}/invitations: a mentor invites a person looking for a mentor to apply. */
export async function inviteToTopic(
  ctx: MutationContext,
  topicId: string,
  menteeId: string,
): Promise<Queued & { invitationId: string }> {
  const invitationId = ctx.newId()
  const data = validate(createInvitationSchema, { id: invitationId, menteeId })
  return queueMutation(ctx, async () => {
    const topic = found(await readRow(ctx.db, 'topics', topicId), 'Topic not found')
    const mentee = found(await readRow(ctx.db, 'users', menteeId), 'User not found')
    const invited = await ctx.db.invitations.where('topicId').equals(topicId).toArray()
    const overlaid = await ctx.db.overlay.where('table').equals('invitations').toArray()
    const alreadyInvited =
      invited.some((i) => i.menteeId === menteeId) ||
      overlaid.some(
        (o) =>
          (o.op.create as Partial<SyncInvitation> | undefined)?.topicId === topicId &&
          (o.op.create as Partial<SyncInvitation> | undefined)?.menteeId === menteeId,
      )
    const alreadyApplied = (await readApplicationsOfTopic(ctx.db, topicId)).some(
      (a) => a.mentee.id === menteeId,
    )
    enforce(checkInvite(await actorOf(ctx), topic, mentee, { alreadyInvited, alreadyApplied }))
    const now = isoNow(ctx)
    const invitation: SyncInvitation = {
      id: invitationId,
      topicId,
      menteeId,
      mentorId: topic.mentorId,
      status: 'open',
      createdAt: now,
      updatedAt: now,
      version: 0,
    }
    return {
      kind: 'invite',
      method: 'POST',
      path: `/api/topics/${encodeURIComponent(topicId)}/invitations`,
      body: data,
      label: `Invite ${mentee.full_name} to apply to “${topic.subject}”`,
      effects: [{ table: 'invitations', rowId: invitationId, op: { create: invitation } }],
      confirmIn: 'invitations',
    }
  }).then((q) => ({ ...q, invitationId }))
}

/** POST /api/invitations/{id}/decline: the person invited says no, thanks. */
export async function declineInvitation(
  ctx: MutationContext,
  invitationId: string,
): Promise<Queued> {
  return queueMutation(ctx, async () => {
    const invitation = found(
      await readRow(ctx.db, 'invitations', invitationId),
      'Invitation not found',
    )
    enforce(checkDeclineInvitation(await actorOf(ctx), invitation))
    const topic = await readRow(ctx.db, 'topics', invitation.topicId)
    return {
      kind: 'decline-invitation',
      method: 'POST',
      path: `/api/invitations/${encodeURIComponent(invitationId)}/decline`,
      label: `Decline the invitation to “${topic?.subject ?? 'a topic'}”`,
      effects: [{ table: 'invitations', rowId: invitationId, op: { set: { status: 'declined' } } }],
      confirmIn: 'invitations',
    }
  })
}

/** PATCH /api/admin/settings: an administrator changes the match weights. */
export async function saveMatchWeights(
  ctx: MutationContext,
  weights: MatchWeights,
): Promise<Queued> {
  const matchWeights = validate(matchWeightsSchema, weights)
  return queueMutation(ctx, async () => {
    enforce(
      checkAdminister(await actorOf(ctx), 'Only administrators can change programme settings.'),
    )
    return {
      kind: 'save-settings',
      method: 'PATCH',
      path: '/api/admin/settings',
      body: { matchWeights },
      label: 'Save the match weights',
      effects: [
        {
          table: 'settings',
          rowId: 'programme',
          op: {
            create: { key: 'programme', ...DEFAULT_PROGRAMME_SETTINGS, matchWeights },
            set: { matchWeights },
          },
        },
      ],
      confirmIn: 'settings',
    }
  })
}
