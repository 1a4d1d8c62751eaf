import { closedByTopicStart } from '../../../../shared/application.ts'
import {
  checkConcludeTopic,
  checkEditTopic,
  checkMaxMentees,
  checkReviewTopic,
  checkStartTopic,
  concludeTopicSchema,
  type ReviewDecision,
  reviewDecisionSchema,
  statusAfterEdit,
  type TopicData,
  type TopicInput,
  topicInputSchema,
} from '../../../../shared/topic.ts'
import type { SyncTopic } from '../engine/db.ts'
import { syncedRow } from '../engine/packs.ts'
import { readApplicationsOfTopic, readRow, readTable } from '../engine/view.ts'
import {
  actorOf,
  type Effect,
  enforce,
  found,
  isoNow,
  type MutationContext,
  MutationRefused,
  type Queued,
  queueMutation,
  validate,
} from './mutation.ts'

const NOT_FOUND = 'Topic not found'

const topicPath = (id: string) => `/api/topics/${encodeURIComponent(id)}`

/** Interest names a write adds to the offered list (the server remembers them too). */
async function newInterests(ctx: MutationContext, names: readonly string[]): Promise<Effect[]> {
  const known = new Set((await readTable(ctx.db, 'interests')).map((i) => i.name.toLowerCase()))
  return names
    .filter((n) => !known.has(n.toLowerCase()))
    .map((name) => ({ table: 'interests', rowId: name, op: { create: { name, version: 0 } } }))
}

function topicFields(data: TopicData) {
  return {
    subject: data.subject,
    description: data.description,
    maxMentees: data.maxMentees,
    seniorityRequired: data.seniorityRequired,
    location: data.location,
    interests: data.interests,
  }
}

/** POST /api/topics: proposes a topic with a client-chosen id, shown at once as pending. */
export async function createTopic(
  ctx: MutationContext,
  input: TopicInput,
): Promise<Queued & { topicId: string }> {
  const data = validate(topicInputSchema, { ...input, id: input.id ?? ctx.newId() })
  const topicId = data.id as string
  return queueMutation(ctx, async () => {
    if (await syncedRow(ctx.db, 'topics', topicId)) {
      throw new MutationRefused(409, 'A topic with this id already exists.')
    }
    const me = await readRow(ctx.db, 'users', ctx.me.id)
    const now = isoNow(ctx)
    const topic: SyncTopic = {
      id: topicId,
      ...topicFields(data),
      currentMentees: 0,
      status: 'proposed',
      mentorId: ctx.me.id,
      mentor: {
        id: ctx.me.id,
        username: me?.username ?? ctx.me.username,
        full_name: me?.full_name ?? ctx.me.username,
        profileImage: me?.profileImage ?? null,
      },
      mentorFeedback: null,
      rejectionReason: null,
      createdAt: now,
      updatedAt: now,
      version: 0,
    }
    return {
      kind: 'create-topic',
      method: 'POST',
      path: '/api/topics',
      body: data,
      label: `Propose the topic “${data.subject}”`,
      effects: [
        { table: 'topics', rowId: topicId, op: { create: topic } },
        ...(await newInterests(ctx, data.interests)),
      ],
      confirmIn: 'topics',
    }
  }).then((q) => ({ ...q, topicId }))
}

/** PATCH /api/topics/{id}: the mentor or an admin edits a topic that has not started. */
export async function editTopic(
  ctx: MutationContext,
  topicId: string,
  input: TopicInput,
): Promise<Queued> {
  const data = validate(topicInputSchema, input)
  if (data.id !== undefined && data.id.toLowerCase() !== topicId.toLowerCase()) {
    throw new MutationRefused(400, 'The id in the body does not match the topic being edited.')
  }
  return queueMutation(ctx, async () => {
    const topic = found(await readRow(ctx.db, 'topics', topicId), NOT_FOUND)
    enforce(checkEditTopic(await actorOf(ctx), topic))
    enforce(checkMaxMentees(topic, data.maxMentees))
    const status = statusAfterEdit(topic.status)
    return {
      kind: 'edit-topic',
      method: 'PATCH',
      path: topicPath(topicId),
      body: data,
      label: `Edit the topic “${data.subject}”`,
      effects: [
        {
          table: 'topics',
          rowId: topicId,
          op: {
            set: { ...topicFields(data), status, rejectionReason: null, updatedAt: isoNow(ctx) },
          },
        },
        ...(await applicationsSeeStatus(ctx, topicId, status, topic.status)),
        ...(await newInterests(ctx, data.interests)),
      ],
      confirmIn: 'topics',
    }
  })
}

/** Applications embed their topic's status: they follow a status change. */
async function applicationsSeeStatus(
  ctx: MutationContext,
  topicId: string,
  status: string,
  before: string,
): Promise<Effect[]> {
  if (status === before) return []
  return (await readApplicationsOfTopic(ctx.db, topicId)).map((a) => ({
    table: 'applications',
    rowId: a.id,
    op: { set: { 'topic.status': status } },
  }))
}

/** POST /api/admin/topics/{id}/review: an administrator approves or rejects a proposed topic. */
export async function reviewTopic(
  ctx: MutationContext,
  topicId: string,
  decision: { status: ReviewDecision['status']; rejectionReason?: string | null },
): Promise<Queued> {
  const data = validate(reviewDecisionSchema, decision)
  return queueMutation(ctx, async () => {
    const topic = found(await readRow(ctx.db, 'topics', topicId), NOT_FOUND)
    enforce(checkReviewTopic(await actorOf(ctx), topic))
    return {
      kind: 'review-topic',
      method: 'POST',
      path: `/api/admin/topics/${encodeURIComponent(topicId)}/review`,
      body: data,
      label: `${data.status === 'approved' ? 'Approve' : 'Reject'} the topic “${topic.subject}”`,
      effects: [
        {
          table: 'topics',
          rowId: topicId,
          op: { set: { status: data.status, rejectionReason: data.rejectionReason } },
        },
        ...(await applicationsSeeStatus(ctx, topicId, data.status, topic.status)),
      ],
      confirmIn: 'topics',
    }
  })
}

/** POST /api/topics/{id}/start: the mentor starts an approved topic; pending applications close. */
export async function startTopic(ctx: MutationContext, topicId: string): Promise<Queued> {
  return queueMutation(ctx, async () => {
    const topic = found(await readRow(ctx.db, 'topics', topicId), NOT_FOUND)
    enforce(checkStartTopic(await actorOf(ctx), topic))
    const applications = await readApplicationsOfTopic(ctx.db, topicId)
    return {
      kind: 'start-topic',
      method: 'POST',
      path: `${topicPath(topicId)}/start`,
      label: `Start the topic “${topic.subject}”`,
      effects: [
        { table: 'topics', rowId: topicId, op: { set: { status: 'started' } } },
        ...applications.map(
          (a): Effect => ({
            table: 'applications',
            rowId: a.id,
            op: { set: { 'topic.status': 'started', ...closedByTopicStart(a) } },
          }),
        ),
      ],
      confirmIn: 'topics',
    }
  })
}

/** POST /api/topics/{id}/conclude: the mentor or an admin concludes a started topic. */
export async function concludeTopic(
  ctx: MutationContext,
  topicId: string,
  input: { mentorFeedback: string },
): Promise<Queued> {
  const data = validate(concludeTopicSchema, input)
  return queueMutation(ctx, async () => {
    const topic = found(await readRow(ctx.db, 'topics', topicId), NOT_FOUND)
    enforce(checkConcludeTopic(await actorOf(ctx), topic))
    return {
      kind: 'conclude-topic',
      method: 'POST',
      path: `${topicPath(topicId)}/conclude`,
      body: data,
      label: `Conclude the topic “${topic.subject}”`,
      effects: [
        {
          table: 'topics',
          rowId: topicId,
          op: { set: { status: 'concluded', mentorFeedback: data.mentorFeedback } },
        },
        ...(await applicationsSeeStatus(ctx, topicId, 'concluded', topic.status)),
      ],
      confirmIn: 'topics',
    }
  })
}
