import {
  type ApplicationDecision,
  checkApply,
  checkDecideApplication,
  decideApplicationSchema,
} from '../../../../shared/application.ts'
import {
  checkGiveFeedback,
  type FeedbackInput,
  feedbackInputSchema,
} from '../../../../shared/feedback.ts'
import type { SyncApplication, SyncFeedback } from '../engine/db.ts'
import {
  readApplicationsOfTopic,
  readFeedbackOfTopic,
  readPendingLimit,
  readRow,
} from '../engine/view.ts'
import {
  actorFrom,
  actorOf,
  type Effect,
  enforce,
  found,
  isoNow,
  type MutationContext,
  type Queued,
  queueMutation,
  validate,
} from './mutation.ts'

/**
 * POST /api/topics/{id}/apply. The pending application shows at once, marked
 * awaiting confirmation: the topic may fill up before the push arrives.
 */
export async function applyToTopic(
  ctx: MutationContext,
  topicId: string,
): Promise<Queued & { applicationId: string }> {
  // The server chooses the real id; this one lives until a pull brings the real row.
  const applicationId = ctx.newId()
  return queueMutation(ctx, async () => {
    // Every read at once: the click waits for the last of them (issue 20).
    const [row, applications, pendingLimit, me] = await Promise.all([
      readRow(ctx.db, 'topics', topicId),
      readApplicationsOfTopic(ctx.db, topicId),
      // The programme's limit on pending applications (issue 18), from this device's rows.
      readPendingLimit(ctx.db, ctx.me.id),
      readRow(ctx.db, 'users', ctx.me.id),
    ])
    const topic = found(row, 'Topic not found')
    const mine = applications.some((a) => a.mentee.id === ctx.me.id)
    enforce(checkApply(actorFrom(ctx, me), topic, mine, pendingLimit))
    const now = isoNow(ctx)
    const application: SyncApplication = {
      id: applicationId,
      topicId,
      status: 'pending',
      rejectionReason: null,
      createdAt: now,
      updatedAt: now,
      mentee: {
        id: ctx.me.id,
        username: me?.username ?? ctx.me.username,
        full_name: me?.full_name ?? ctx.me.username,
        seniority: me?.seniority ?? null,
      },
      topic: {
        id: topic.id,
        subject: topic.subject,
        status: topic.status,
        mentor: {
          id: topic.mentor.id,
          username: topic.mentor.username,
          full_name: topic.mentor.full_name,
        },
      },
      version: 0,
    }
    return {
      kind: 'apply',
      method: 'POST',
      path: `/api/topics/${encodeURIComponent(topicId)}/apply`,
      label: `Apply to “${topic.subject}”`,
      effects: [{ table: 'applications', rowId: applicationId, op: { create: application } }],
      // A refusal (say, the topic filled up) is shown on the topic too.
      alsoTargets: [{ table: 'topics', rowId: topicId }],
      confirmIn: 'applications',
      awaitingConfirmation: true,
    }
  }).then((q) => ({ ...q, applicationId }))
}

/**
 * PATCH /api/applications/{id}: the topic's mentor accepts, or rejects with a
 * reason. An acceptance awaits confirmation: the topic may be full by then.
 */
export async function decideApplication(
  ctx: MutationContext,
  applicationId: string,
  decision: { status: ApplicationDecision['status']; rejectionReason?: string | null },
): Promise<Queued> {
  const data = validate(decideApplicationSchema, decision)
  return queueMutation(ctx, async () => {
    const [row, actor] = await Promise.all([
      readRow(ctx.db, 'applications', applicationId),
      actorOf(ctx),
    ])
    const application = found(row, 'Application not found')
    const topic = found(await readRow(ctx.db, 'topics', application.topicId), 'Topic not found')
    enforce(checkDecideApplication(actor, topic, application, data.status))
    const effects: Effect[] = [
      {
        table: 'applications',
        rowId: applicationId,
        op: { set: { status: data.status, rejectionReason: data.rejectionReason } },
      },
    ]
    if (data.status === 'accepted') {
      effects.push({ table: 'topics', rowId: topic.id, op: { inc: { currentMentees: 1 } } })
    }
    const verb = data.status === 'accepted' ? 'Accept' : 'Reject'
    return {
      kind: 'decide-application',
      method: 'PATCH',
      path: `/api/applications/${encodeURIComponent(applicationId)}`,
      body: data,
      label: `${verb} ${application.mentee.full_name}’s application to “${topic.subject}”`,
      effects,
      confirmIn: 'applications',
      awaitingConfirmation: data.status === 'accepted',
    }
  })
}

export async function acceptApplication(
  ctx: MutationContext,
  applicationId: string,
): Promise<Queued> {
  return decideApplication(ctx, applicationId, { status: 'accepted' })
}

export async function rejectApplication(
  ctx: MutationContext,
  applicationId: string,
  rejectionReason: string,
): Promise<Queued> {
  return decideApplication(ctx, applicationId, { status: 'rejected', rejectionReason })
}

/** POST /api/topics/{id}/feedback: adds the caller's feedback on a concluded topic, or edits it. */
export async function giveFeedback(
  ctx: MutationContext,
  topicId: string,
  input: FeedbackInput,
): Promise<Queued> {
  const data = validate(feedbackInputSchema, input)
  return queueMutation(ctx, async () => {
    const topic = found(await readRow(ctx.db, 'topics', topicId), 'Topic not found')
    const accepted = (await readApplicationsOfTopic(ctx.db, topicId)).some(
      (a) => a.mentee.id === ctx.me.id && a.status === 'accepted',
    )
    enforce(checkGiveFeedback(await actorOf(ctx), topic, accepted))
    const existing = (await readFeedbackOfTopic(ctx.db, topicId)).find(
      (f) => f.user.id === ctx.me.id,
    )
    const now = isoNow(ctx)
    let effect: Effect
    if (existing) {
      effect = {
        table: 'feedback',
        rowId: existing.id,
        op: { set: { feedback: data.feedback, rating: data.rating, updatedAt: now } },
      }
    } else {
      const me = await readRow(ctx.db, 'users', ctx.me.id)
      const row: SyncFeedback = {
        id: ctx.newId(),
        topicId,
        feedback: data.feedback,
        rating: data.rating,
        isMentor: topic.mentorId === ctx.me.id,
        user: {
          id: ctx.me.id,
          username: me?.username ?? ctx.me.username,
          full_name: me?.full_name ?? ctx.me.username,
        },
        createdAt: now,
        updatedAt: now,
        version: 0,
      }
      effect = { table: 'feedback', rowId: row.id, op: { create: row } }
    }
    return {
      kind: 'give-feedback',
      method: 'POST',
      path: `/api/topics/${encodeURIComponent(topicId)}/feedback`,
      body: data,
      label: `Feedback on “${topic.subject}”`,
      effects: [effect],
      confirmIn: 'feedback',
    }
  })
}
