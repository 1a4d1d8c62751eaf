import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  approvedTopic,
  createTopic,
  expectReadableProblem,
  notificationsOf,
  signInAdmin,
  statusOf,
  type Topic,
  topicBody,
  unique,
} from '../test/api.ts'
import { type Answer, type Client, startTestServer, type TestServer } from '../test/server.ts'

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server)
})

afterAll(async () => {
  await server?.stop()
})

async function signInUser(prefix = 'user'): Promise<Client> {
  return server.signIn(unique(prefix))
}

/** Puts a topic straight into a status, with the fields that status needs. */
async function forceStatus(topic: Topic, status: string): Promise<void> {
  await server.sql`
    UPDATE topics SET status = ${status}::topic_status,
      mentor_feedback = ${status === 'concluded' ? 'Forced' : null},
      rejection_reason = ${status === 'rejected' ? 'Forced' : null}
    WHERE id = ${topic.id}`
}

async function apply(mentee: Client, topic: Topic): Promise<string> {
  const res = await mentee.post(`/api/topics/${topic.id}/apply`)
  expect(res.status, res.text).toBe(201)
  return res.body.id
}

async function decide(mentor: Client, applicationId: string, body: Record<string, unknown>) {
  const res = await mentor.patch(`/api/applications/${applicationId}`, body)
  expect(res.status, res.text).toBe(200)
}

function start(client: Client, topic: Topic): Promise<Answer> {
  return client.post(`/api/topics/${topic.id}/start`)
}

function conclude(client: Client, topic: Topic, body: unknown): Promise<Answer> {
  return client.post(`/api/topics/${topic.id}/conclude`, body)
}

/**
 * An approved topic with one accepted mentee, two pending ones and one the
 * mentor already rejected.
 */
async function setUpTopicWithApplicants() {
  const mentor = await signInUser('mentor')
  const topic = await approvedTopic(admin, mentor)
  const accepted = await signInUser('accepted')
  const pending = [await signInUser('pending'), await signInUser('pending')]
  const rejected = await signInUser('rejected')
  await decide(mentor, await apply(accepted, topic), { status: 'accepted' })
  for (const mentee of pending) await apply(mentee, topic)
  await decide(mentor, await apply(rejected, topic), {
    status: 'rejected',
    rejectionReason: 'Not a fit',
  })
  return { mentor, topic, accepted, pending, rejected }
}

describe('POST /api/topics/{id}/start', () => {
  it('lets the mentor start an approved topic', async () => {
    const mentor = await signInUser('mentor')
    const topic = await approvedTopic(admin, mentor)
    const res = await start(mentor, topic)
    expect(res.status, res.text).toBe(200)
    expect(res.body).toMatchObject({ id: topic.id, status: 'started' })
    expect((await mentor.get(`/api/topics/${topic.id}`)).body.status).toBe('started')
  })

  it('refuses an admin who is not the mentor with 403', async () => {
    const mentor = await signInUser('mentor')
    const topic = await approvedTopic(admin, mentor)
    expectReadableProblem(
      await start(admin, topic),
      403,
      'Only the mentor of this topic can start it',
    )
    expect(await statusOf(server, topic.id)).toBe('approved')
  })

  it('refuses another user with 403', async () => {
    const mentor = await signInUser('mentor')
    const topic = await approvedTopic(admin, mentor)
    const other = await signInUser('other')
    expectReadableProblem(
      await start(other, topic),
      403,
      'Only the mentor of this topic can start it',
    )
    expect(await statusOf(server, topic.id)).toBe('approved')
  })

  it.each(['proposed', 'rejected', 'started', 'concluded'])(
    'refuses to start a %s topic with 409',
    async (status) => {
      const mentor = await signInUser('mentor')
      const topic = await createTopic(mentor)
      await forceStatus(topic, status)
      expectReadableProblem(
        await start(mentor, topic),
        409,
        `This topic is ${status}; only approved topics can be started`,
      )
      expect(await statusOf(server, topic.id)).toBe(status)
    },
  )

  it('answers 404 for a missing topic and 401 without a session', async () => {
    const mentor = await signInUser('mentor')
    expectReadableProblem(
      await start(mentor, { id: randomUUID() } as Topic),
      404,
      'Topic not found',
    )
    expectReadableProblem(await mentor.post('/api/topics/not-a-uuid/start'), 404, 'Topic not found')
    const topic = await approvedTopic(admin, mentor)
    expectReadableProblem(await start(server.anonymous(), topic), 401)
    expect(await statusOf(server, topic.id)).toBe('approved')
  })

  it('starts a topic once when the mentor starts it twice at the same time', async () => {
    const { mentor, topic, accepted, pending } = await setUpTopicWithApplicants()
    const answers = await Promise.all([start(mentor, topic), start(mentor, topic)])
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
    expect(await notificationsOf(accepted, 'topic_started')).toHaveLength(1)
    for (const mentee of pending) {
      expect(await notificationsOf(mentee, 'application_rejected')).toHaveLength(1)
    }
  })

  describe('with applicants', () => {
    let world: Awaited<ReturnType<typeof setUpTopicWithApplicants>>

    beforeAll(async () => {
      world = await setUpTopicWithApplicants()
      const res = await start(world.mentor, world.topic)
      expect(res.status, res.text).toBe(200)
    })

    it('closes pending applications as rejected with "The topic has started"', async () => {
      const { mentor, topic, pending } = world
      for (const mentee of pending) {
        const res = await mentee.get(`/api/topics/${topic.id}/my-application`)
        expect(res.body).toMatchObject({
          status: 'rejected',
          rejectionReason: 'The topic has started',
        })
      }
      const all = (await mentor.get(`/api/topics/${topic.id}/applications`)).body
      expect(all.filter((a: { status: string }) => a.status === 'pending')).toEqual([])
    })

    it('tells those mentees with an application_rejected notification', async () => {
      const { topic, pending } = world
      for (const mentee of pending) {
        const notes = await notificationsOf(mentee, 'application_rejected')
        expect(notes).toHaveLength(1)
        expect(notes[0].message).toContain(topic.subject)
        expect(notes[0].message).toContain('The topic has started')
        expect(await notificationsOf(mentee, 'topic_started')).toEqual([])
      }
    })

    it('tells accepted mentees with a topic_started notification', async () => {
      const { topic, accepted } = world
      const notes = await notificationsOf(accepted, 'topic_started')
      expect(notes).toHaveLength(1)
      expect(notes[0].message).toContain(topic.subject)
      expect(await notificationsOf(accepted, 'application_rejected')).toEqual([])
      const mine = (await accepted.get(`/api/topics/${topic.id}/my-application`)).body
      expect(mine.status).toBe('accepted')
    })

    it('leaves an application the mentor rejected earlier as it was', async () => {
      const { topic, rejected } = world
      const mine = (await rejected.get(`/api/topics/${topic.id}/my-application`)).body
      expect(mine).toMatchObject({ status: 'rejected', rejectionReason: 'Not a fit' })
      expect(await notificationsOf(rejected, 'application_rejected')).toHaveLength(1)
      expect(await notificationsOf(rejected, 'topic_started')).toEqual([])
    })

    it('keeps currentMentees at the accepted count', async () => {
      const { mentor, topic } = world
      expect((await mentor.get(`/api/topics/${topic.id}`)).body.currentMentees).toBe(1)
    })
  })
})

describe('POST /api/topics/{id}/conclude', () => {
  async function startedTopic() {
    const mentor = await signInUser('mentor')
    const topic = await approvedTopic(admin, mentor)
    expect((await start(mentor, topic)).status).toBe(200)
    return { mentor, topic }
  }

  it('lets the mentor conclude a started topic and stores the feedback', async () => {
    const { mentor, topic } = await startedTopic()
    const res = await conclude(mentor, topic, { mentorFeedback: '  Great sessions.  ' })
    expect(res.status, res.text).toBe(200)
    expect(res.body).toMatchObject({ status: 'concluded', mentorFeedback: 'Great sessions.' })
    const other = await signInUser('other')
    expect((await other.get(`/api/topics/${topic.id}`)).body).toMatchObject({
      status: 'concluded',
      mentorFeedback: 'Great sessions.',
    })
  })

  it('lets an admin conclude a started topic', async () => {
    const { topic } = await startedTopic()
    const res = await conclude(admin, topic, { mentorFeedback: 'Closed by admin' })
    expect(res.status, res.text).toBe(200)
    expect(res.body).toMatchObject({ status: 'concluded', mentorFeedback: 'Closed by admin' })
  })

  it('refuses another user with 403', async () => {
    const { topic } = await startedTopic()
    const other = await signInUser('other')
    expectReadableProblem(
      await conclude(other, topic, { mentorFeedback: 'Not mine' }),
      403,
      'Only the mentor of this topic or an administrator can conclude it',
    )
    expect(await statusOf(server, topic.id)).toBe('started')
  })

  it.each(['proposed', 'approved', 'rejected', 'concluded'])(
    'refuses to conclude a %s topic with 409',
    async (status) => {
      const mentor = await signInUser('mentor')
      const topic = await createTopic(mentor)
      await forceStatus(topic, status)
      expectReadableProblem(
        await conclude(mentor, topic, { mentorFeedback: 'Done' }),
        409,
        `This topic is ${status}; only started topics can be concluded`,
      )
      expect(await statusOf(server, topic.id)).toBe(status)
    },
  )

  it.each([
    ['an empty feedback', { mentorFeedback: '' }],
    ['a whitespace feedback', { mentorFeedback: ' \n\t ' }],
    ['no feedback', {}],
    ['a feedback that is not text', { mentorFeedback: 5 }],
  ])('refuses %s with 400', async (_name, body) => {
    const { mentor, topic } = await startedTopic()
    expectReadableProblem(await conclude(mentor, topic, body), 400, 'Mentor feedback is required')
    expect(await statusOf(server, topic.id)).toBe('started')
  })

  it('refuses a request without a body with 400', async () => {
    const { mentor, topic } = await startedTopic()
    expectReadableProblem(
      await mentor.post(`/api/topics/${topic.id}/conclude`),
      400,
      'Mentor feedback',
    )
    expect(await statusOf(server, topic.id)).toBe('started')
  })

  it('refuses an unknown field with 400', async () => {
    const { mentor, topic } = await startedTopic()
    const res = await conclude(mentor, topic, { mentorFeedback: 'ok', rating: 5 })
    expectReadableProblem(res, 400, 'rating')
  })

  it('tells accepted mentees with a topic_concluded notification', async () => {
    const { mentor, topic, accepted, pending } = await setUpTopicWithApplicants()
    expect((await start(mentor, topic)).status).toBe(200)
    expect((await conclude(mentor, topic, { mentorFeedback: 'Thanks all' })).status).toBe(200)
    const notes = await notificationsOf(accepted, 'topic_concluded')
    expect(notes).toHaveLength(1)
    expect(notes[0].message).toContain(topic.subject)
    for (const mentee of pending)
      expect(await notificationsOf(mentee, 'topic_concluded')).toEqual([])
  })

  it('concludes a topic once when mentor and admin conclude it at the same time', async () => {
    const { mentor, topic } = await startedTopic()
    const answers = await Promise.all([
      conclude(mentor, topic, { mentorFeedback: 'From the mentor' }),
      conclude(admin, topic, { mentorFeedback: 'From the admin' }),
    ])
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
    const winner = answers.find((a) => a.status === 200)
    const stored = (await mentor.get(`/api/topics/${topic.id}`)).body
    expect(stored.mentorFeedback).toBe(winner?.body.mentorFeedback)
  })

  it('answers 404 for a missing topic and 401 without a session', async () => {
    const { topic } = await startedTopic()
    expectReadableProblem(
      await conclude(admin, { id: randomUUID() } as Topic, { mentorFeedback: 'x' }),
      404,
      'Topic not found',
    )
    expectReadableProblem(await conclude(server.anonymous(), topic, { mentorFeedback: 'x' }), 401)
    expect(await statusOf(server, topic.id)).toBe('started')
  })
})

/**
 * Spec sections 4 and 6: which action each topic status allows, with the
 * status the topic has afterwards (or keeps, when refused).
 */
describe('topic transition table', () => {
  type Action = 'review' | 'start' | 'conclude' | 'edit'
  const ALLOWED: Record<string, Partial<Record<Action, string>>> = {
    proposed: { review: 'approved', edit: 'proposed' },
    approved: { start: 'started', edit: 'approved' },
    rejected: { edit: 'proposed' },
    started: { conclude: 'concluded' },
    concluded: {},
  }
  const ACTIONS: Action[] = ['review', 'start', 'conclude', 'edit']

  async function act(action: Action, mentor: Client, topic: Topic): Promise<Answer> {
    switch (action) {
      case 'review':
        return admin.post(`/api/admin/topics/${topic.id}/review`, { status: 'approved' })
      case 'start':
        return start(mentor, topic)
      case 'conclude':
        return conclude(mentor, topic, { mentorFeedback: 'Done' })
      case 'edit':
        return mentor.patch(`/api/topics/${topic.id}`, topicBody())
    }
  }

  const cases = Object.entries(ALLOWED).flatMap(([status, allowed]) =>
    ACTIONS.map((action) => [status, action, allowed[action]] as const),
  )

  it.each(cases)('%s topic, %s → %s', async (status, action, after) => {
    const mentor = await signInUser('mentor')
    const topic = await createTopic(mentor)
    await forceStatus(topic, status)
    const res = await act(action, mentor, topic)
    if (after) {
      expect(res.status, res.text).toBe(200)
      expect(res.body.status).toBe(after)
      expect(await statusOf(server, topic.id)).toBe(after)
    } else {
      expectReadableProblem(res, 409)
      expect(await statusOf(server, topic.id)).toBe(status)
    }
  })
})

/** Spec section 6: who may do each action on a topic in the status that allows it. */
describe('topic permission table', () => {
  type Who = 'mentor' | 'admin' | 'other'
  const TABLE: [string, string, Record<Who, number>][] = [
    ['start', 'approved', { mentor: 200, admin: 403, other: 403 }],
    ['conclude', 'started', { mentor: 200, admin: 200, other: 403 }],
    ['edit', 'approved', { mentor: 200, admin: 200, other: 403 }],
    ['edit', 'proposed', { mentor: 200, admin: 200, other: 404 }],
  ]
  const cases = TABLE.flatMap(([action, status, expected]) =>
    (Object.keys(expected) as Who[]).map((who) => [action, status, who, expected[who]] as const),
  )

  it.each(cases)('%s on a %s topic by the %s → %i', async (action, status, who, expected) => {
    const mentor = await signInUser('mentor')
    const caller = who === 'mentor' ? mentor : who === 'admin' ? admin : await signInUser('other')
    const topic = await createTopic(mentor)
    await forceStatus(topic, status)
    const res =
      action === 'start'
        ? await start(caller, topic)
        : action === 'conclude'
          ? await conclude(caller, topic, { mentorFeedback: 'Done' })
          : await caller.patch(`/api/topics/${topic.id}`, topicBody())
    if (expected === 200) expect(res.status, res.text).toBe(200)
    else {
      expectReadableProblem(res, expected)
      expect(await statusOf(server, topic.id)).toBe(status)
    }
  })
})
