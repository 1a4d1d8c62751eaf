import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_PREFERENCES } from '../../../../shared/preferences.ts'
import type { SyncUser } from '../engine/db.ts'
import { applyPage } from '../engine/page.ts'
import { readOutbox, readRow, readTable } from '../engine/view.ts'
import { applicationRow, localContext, topicRow, userRow } from '../testing/fixtures.ts'
import { MutationRefused } from './mutation.ts'
import { bindMutations } from './mutations.ts'

// Mutation functions against a local database only: what each queues, what
// the merged view shows at once, and what is refused before it is queued.

const mentor = userRow({ username: 'mentor' })
const mentee = userRow({ username: 'mentee' })
const admin = userRow({ username: 'admin', isAdmin: true })
let contexts: ReturnType<typeof localContext>[] = []

async function setup(me: SyncUser) {
  const ctx = localContext(me)
  contexts.push(ctx)
  await ctx.db.users.bulkPut([mentor, mentee, admin])
  return { ctx, db: ctx.db, mutate: bindMutations(ctx) }
}

afterEach(async () => {
  for (const c of contexts) await c.db.delete()
  contexts = []
})

async function refusal(p: Promise<unknown> | (() => unknown)): Promise<MutationRefused> {
  try {
    await (typeof p === 'function' ? p() : p)
  } catch (error) {
    expect(error).toBeInstanceOf(MutationRefused)
    return error as MutationRefused
  }
  throw new Error('expected a refusal')
}

describe('apply', () => {
  it('asks IndexedDB for every read of its checks at once, in the transaction that queues it', async () => {
    const ctx = localContext(mentee)
    contexts.push(ctx)
    // Each read request as IndexedDB gets it, and each answer, in order.
    const log: string[] = []
    ctx.db.use({
      stack: 'dbcore',
      name: 'read-log',
      create: (down) => ({
        ...down,
        table: (name) => {
          const table = down.table(name)
          const traced =
            <A, R>(op: string, call: (req: A) => Promise<R>) =>
            (req: A) => {
              log.push(`ask ${op} ${name}`)
              return call(req).then((answer) => {
                log.push(`answer ${op} ${name}`)
                return answer
              })
            }
          return {
            ...table,
            get: traced('get', table.get),
            getMany: traced('getMany', table.getMany),
            query: traced('query', table.query),
            count: traced('count', table.count),
            openCursor: traced('openCursor', table.openCursor),
          }
        },
      }),
    })
    await ctx.db.users.bulkPut([mentor, mentee])
    const topic = topicRow(mentor)
    await ctx.db.topics.put(topic)
    log.length = 0

    await bindMutations(ctx).applyToTopic(topic.id)

    const firstAnswer = log.findIndex((line) => line.startsWith('answer'))
    const askedAtOnce = log.slice(0, firstAnswer)
    // The topic, its applications, the caller's applications and row, the settings, the
    // overlay and refusals each of those reads merges, and what waits to be sent: before
    // the first answer. (Reads nested as transactions of their own went one after another.)
    expect(askedAtOnce).toEqual(
      expect.arrayContaining([
        'ask get topics',
        'ask query applications',
        'ask get users',
        'ask get settings',
        'ask openCursor outbox',
        'ask get meta',
      ]),
    )
    expect(askedAtOnce.length).toBeGreaterThanOrEqual(16)
    expect(log.slice(firstAnswer).some((line) => line.startsWith('ask'))).toBe(false)
  })

  it('checks and queues a change to rows a first sync stored in packs', async () => {
    const ctx = localContext(mentee)
    contexts.push(ctx)
    const topic = topicRow(mentor)
    const lists = () => ({
      topics: [],
      applications: [],
      feedback: [],
      notifications: [],
      users: [],
      interests: [],
      dismissals: [],
      invitations: [],
    })
    // A first sync's page: the topic and the people one record per table (packs.ts).
    await applyPage(
      ctx.db,
      {
        changes: {
          ...lists(),
          topics: [topic],
          users: [mentor, mentee],
          preferences: null,
          settings: null,
        },
        removed: lists(),
        cursor: 'c1',
        hasMore: false,
        reset: false,
      },
      true,
      false,
    )
    expect(await ctx.db.topics.count()).toBe(0)
    const { applicationId } = await bindMutations(ctx).applyToTopic(topic.id)
    expect(await readRow(ctx.db, 'applications', applicationId)).toMatchObject({
      status: 'pending',
      topicId: topic.id,
      mentee: { id: mentee.id, username: 'mentee' },
    })
    expect(await readOutbox(ctx.db)).toHaveLength(1)
  })

  it('queues the POST and shows a pending application awaiting confirmation', async () => {
    const { ctx, db, mutate } = await setup(mentee)
    const topic = topicRow(mentor)
    await db.topics.put(topic)
    const { mutationId, applicationId } = await mutate.applyToTopic(topic.id)

    const [row] = await readOutbox(db)
    expect(row).toMatchObject({
      id: mutationId,
      method: 'POST',
      path: `/api/topics/${topic.id}/apply`,
      status: 'queued',
      attempts: 0,
      awaitingConfirmation: true,
    })
    expect(row?.body).toBeUndefined()
    expect(ctx.queued).toEqual([mutationId])
    const application = await readRow(db, 'applications', applicationId)
    expect(application).toMatchObject({ status: 'pending', topicId: topic.id })
    expect(application?.mentee).toMatchObject({ id: mentee.id, username: 'mentee' })
    expect(application?.sync).toMatchObject({
      pending: true,
      created: true,
      awaitingConfirmation: true,
      mutations: [mutationId],
    })
    // The synced tables are untouched: the change lives in the overlay only.
    expect(await db.applications.count()).toBe(0)
  })

  it('refuses in the server’s words what the server would refuse, queueing nothing', async () => {
    const { db, mutate } = await setup(mentee)
    const own = topicRow(mentee)
    const full = topicRow(mentor, { currentMentees: 1, maxMentees: 1 })
    const proposed = topicRow(mentor, { status: 'proposed' })
    const open = topicRow(mentor, { maxMentees: 2 })
    await db.topics.bulkPut([own, full, proposed, open])
    await mutate.applyToTopic(open.id)

    expect(await refusal(mutate.applyToTopic(own.id))).toMatchObject({
      status: 403,
      detail: 'You cannot apply to your own topic.',
    })
    expect((await refusal(mutate.applyToTopic(full.id))).detail).toBe(
      'This topic is full: it already has the maximum number of mentees.',
    )
    expect((await refusal(mutate.applyToTopic(proposed.id))).detail).toBe(
      'This topic is proposed and is not open for applications.',
    )
    // The pending application queued offline counts.
    expect((await refusal(mutate.applyToTopic(open.id))).detail).toBe(
      'You have already applied to this topic.',
    )
    expect(await refusal(mutate.applyToTopic('missing'))).toMatchObject({
      status: 404,
      detail: 'Topic not found',
    })
    expect(await db.outbox.count()).toBe(1)
    expect(await db.overlay.count()).toBe(1)
  })
})

describe('accept and reject', () => {
  it('accepting shows the application accepted and the topic one mentee fuller', async () => {
    const { db, mutate } = await setup(mentor)
    const topic = topicRow(mentor, { maxMentees: 1 })
    const a = applicationRow(topic, mentee)
    const b = applicationRow(topic, admin)
    await db.topics.put(topic)
    await db.applications.bulkPut([a, b])

    await mutate.acceptApplication(a.id)
    expect(await readRow(db, 'applications', a.id)).toMatchObject({
      status: 'accepted',
      sync: { pending: true, awaitingConfirmation: true },
    })
    expect((await readRow(db, 'topics', topic.id))?.currentMentees).toBe(1)
    // The topic is full now, as far as this device knows.
    expect((await refusal(mutate.acceptApplication(b.id))).detail).toBe(
      'This topic is full: it already has the maximum number of mentees.',
    )
    await mutate.rejectApplication(b.id, '  Not this time  ')
    expect(await readRow(db, 'applications', b.id)).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Not this time',
    })
    expect((await readOutbox(db)).map((r) => [r.method, r.body])).toEqual([
      ['PATCH', { status: 'accepted', rejectionReason: null }],
      ['PATCH', { status: 'rejected', rejectionReason: 'Not this time' }],
    ])
  })

  it('refuses a rejection without a reason and a decision by someone else', async () => {
    const { db, mutate } = await setup(mentee)
    const topic = topicRow(mentor)
    const a = applicationRow(topic, admin)
    await db.topics.put(topic)
    await db.applications.put(a)
    expect(await refusal(mutate.rejectApplication(a.id, '   '))).toMatchObject({
      status: 400,
      detail: 'A rejection reason is required (rejectionReason).',
      errors: [{ path: 'rejectionReason', message: 'A rejection reason is required' }],
    })
    expect(await refusal(mutate.acceptApplication(a.id))).toMatchObject({
      status: 403,
      detail: 'Only the mentor of this topic can accept or reject its applications.',
    })
    expect(await db.outbox.count()).toBe(0)
  })
})

describe('topic writes', () => {
  it('creates a topic with a client-chosen id, shown as proposed and pending', async () => {
    const { db, mutate } = await setup(mentor)
    const { topicId } = await mutate.createTopic({
      subject: '  Offline topic ',
      maxMentees: '2' as unknown as number,
      seniorityRequired: ['mid', 'mid'],
      interests: ['Rust', 'rust'],
    })
    const [row] = await readOutbox(db)
    expect(row?.body).toEqual({
      id: topicId,
      subject: 'Offline topic',
      description: '',
      maxMentees: 2,
      seniorityRequired: ['mid'],
      location: 'online',
      interests: ['Rust'],
    })
    expect(await readRow(db, 'topics', topicId)).toMatchObject({
      subject: 'Offline topic',
      status: 'proposed',
      mentorId: mentor.id,
      currentMentees: 0,
      sync: { pending: true, created: true },
    })
    expect((await readTable(db, 'interests')).map((i) => i.name)).toEqual(['Rust'])
    expect(
      (await refusal(mutate.createTopic({ subject: ' ', seniorityRequired: [] } as never))).detail,
    ).toBe('Subject is required (subject).')
  })

  it('edits, reviews, starts and concludes as the rules allow', async () => {
    const { db, mutate } = await setup(mentor)
    const rejected = topicRow(mentor, { status: 'rejected', rejectionReason: 'Vague' })
    const approved = topicRow(mentor, { subject: 'Go' })
    const pending = applicationRow(approved, mentee)
    const accepted = applicationRow(approved, admin, { status: 'accepted' })
    await db.topics.bulkPut([rejected, approved])
    await db.applications.bulkPut([pending, accepted])

    await mutate.editTopic(rejected.id, {
      subject: 'Clearer',
      maxMentees: 1,
      seniorityRequired: ['junior'],
    })
    expect(await readRow(db, 'topics', rejected.id)).toMatchObject({
      subject: 'Clearer',
      status: 'proposed',
      rejectionReason: null,
    })
    expect(await refusal(mutate.reviewTopic(rejected.id, { status: 'approved' }))).toMatchObject({
      status: 403,
      detail: 'Only administrators can review topics.',
    })

    await mutate.startTopic(approved.id)
    expect((await readRow(db, 'topics', approved.id))?.status).toBe('started')
    expect(await readRow(db, 'applications', pending.id)).toMatchObject({
      status: 'rejected',
      rejectionReason: 'The topic has started',
      topic: { status: 'started' },
    })
    expect((await readRow(db, 'applications', accepted.id))?.status).toBe('accepted')
    expect(
      (
        await refusal(
          mutate.editTopic(approved.id, {
            subject: 'x',
            maxMentees: 1,
            seniorityRequired: ['mid'],
          }),
        )
      ).detail,
    ).toBe('This topic is started and can no longer be edited.')
    expect((await refusal(mutate.concludeTopic(approved.id, { mentorFeedback: ' ' }))).detail).toBe(
      'Mentor feedback is required (mentorFeedback).',
    )
    await mutate.concludeTopic(approved.id, { mentorFeedback: 'Went well' })
    expect(await readRow(db, 'topics', approved.id)).toMatchObject({
      status: 'concluded',
      mentorFeedback: 'Went well',
    })
    expect((await readOutbox(db)).map((r) => r.path)).toEqual([
      `/api/topics/${rejected.id}`,
      `/api/topics/${approved.id}/start`,
      `/api/topics/${approved.id}/conclude`,
    ])
  })

  it('lets an administrator review a proposed topic', async () => {
    const { db, mutate } = await setup(admin)
    const topic = topicRow(mentor, { status: 'proposed' })
    await db.topics.put(topic)
    await mutate.reviewTopic(topic.id, { status: 'rejected', rejectionReason: 'Too broad' })
    expect(await readRow(db, 'topics', topic.id)).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Too broad',
    })
  })
})

describe('feedback, profile, preferences, notifications, admin', () => {
  it('adds feedback on a concluded topic, then edits the same feedback', async () => {
    const { db, mutate } = await setup(mentee)
    const topic = topicRow(mentor, { status: 'concluded' })
    await db.topics.put(topic)
    expect((await refusal(mutate.giveFeedback(topic.id, { feedback: 'Great' }))).status).toBe(403)
    await db.applications.put(applicationRow(topic, mentee, { status: 'accepted' }))
    await mutate.giveFeedback(topic.id, { feedback: 'Great' })
    await mutate.giveFeedback(topic.id, { feedback: 'Great, really', rating: 4 })
    const feedback = await readTable(db, 'feedback')
    expect(feedback).toHaveLength(1)
    expect(feedback[0]).toMatchObject({ feedback: 'Great, really', rating: 4, isMentor: false })
    expect(feedback[0]?.sync.mutations).toHaveLength(2)
  })

  it('edits a profile, saves preferences and marks a notification read', async () => {
    const { db, mutate } = await setup(mentee)
    await db.notifications.put({
      id: '00000000-0000-4000-8000-000000000001',
      kind: 'topic_approved',
      title: 'Approved',
      message: 'Your topic was approved',
      link: null,
      createdAt: '2025-01-01T00:00:00.000Z',
      read: false,
      topicId: null,
      snoozedUntil: null,
      response: null,
      version: 1,
    })
    await mutate.updateProfile('MENTEE', { bio: 'Hello', interests: ['Go'] })
    expect(await readRow(db, 'users', mentee.id)).toMatchObject({ bio: 'Hello', interests: ['Go'] })
    expect((await refusal(mutate.updateProfile('mentor', { bio: 'x' }))).detail).toBe(
      'Only the owner of a profile or an administrator can edit it.',
    )
    const prefs = {
      emailNotifications: { ...DEFAULT_PREFERENCES.emailNotifications, newApplications: false },
    }
    await mutate.savePreferences(prefs)
    expect(await readRow(db, 'preferences', 'me')).toMatchObject(prefs)

    const id = '00000000-0000-4000-8000-000000000001'
    expect(await mutate.markNotificationRead(id)).not.toBeNull()
    expect((await readRow(db, 'notifications', id))?.read).toBe(true)
    // Already read (pending): nothing more to queue.
    expect(await mutate.markNotificationRead(id)).toBeNull()
    expect(await db.outbox.count()).toBe(3)
  })

  it('toggles another user’s admin flag, never one’s own, and only as an administrator', async () => {
    const { db, mutate } = await setup(admin)
    await mutate.toggleAdmin(mentee.id)
    expect((await readRow(db, 'users', mentee.id))?.isAdmin).toBe(true)
    expect((await refusal(mutate.toggleAdmin(admin.id))).detail).toBe(
      'You cannot change your own administrator status; ask another administrator.',
    )
    const other = await setup(mentee)
    expect((await refusal(other.mutate.toggleAdmin(mentor.id))).status).toBe(403)
  })
})
