import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTopic,
  expectReadableProblem,
  notificationsOf,
  signInAdmin,
  statusOf,
  unique,
} from '../test/api.ts'
import { type Answer, type Client, startTestServer, type TestServer } from '../test/server.ts'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})

afterAll(async () => {
  await server?.stop()
})

async function signInUser(prefix = 'user'): Promise<Client> {
  return server.signIn(unique(prefix))
}

/** The topics these tests propose ask for mid-level mentees. */
const MID_LEVEL = { seniorityRequired: ['mid'] }

function reviewTopic(client: Client, topicId: string, body: unknown): Promise<Answer> {
  return client.post(`/api/admin/topics/${topicId}/review`, body)
}

describe('POST /api/admin/topics/{id}/review', () => {
  let admin: Client

  beforeAll(async () => {
    admin = await signInAdmin(server)
  })

  describe('approving', () => {
    it('approves a proposed topic and answers the topic', async () => {
      const mentor = await signInUser('mentor')
      const topic = await createTopic(mentor, MID_LEVEL)
      const res = await reviewTopic(admin, topic.id, { status: 'approved' })
      expect(res.status, res.text).toBe(200)
      expect(res.body).toMatchObject({
        id: topic.id,
        status: 'approved',
        rejectionReason: null,
        mentor: { id: mentor.user?.id },
      })
      expect(await statusOf(server, topic.id)).toBe('approved')
    })

    it('tells the mentor with a topic_approved notification', async () => {
      const mentor = await signInUser('mentor')
      const topic = await createTopic(mentor, MID_LEVEL)
      await reviewTopic(admin, topic.id, { status: 'approved' })
      const notes = await notificationsOf(mentor, 'topic_approved')
      expect(notes).toHaveLength(1)
      expect(notes[0]).toMatchObject({ read: false, title: expect.any(String) })
      expect(notes[0].message).toContain(topic.subject)
      expect(notes[0].link).toContain(topic.id)
    })

    it('makes the topic visible to everyone', async () => {
      const mentor = await signInUser('mentor')
      const other = await signInUser('other')
      const topic = await createTopic(mentor, MID_LEVEL)
      expect((await other.get(`/api/topics/${topic.id}`)).status).toBe(404)
      await reviewTopic(admin, topic.id, { status: 'approved' })
      expect((await other.get(`/api/topics/${topic.id}`)).body.status).toBe('approved')
    })

    it('ignores a rejection reason sent with an approval', async () => {
      const mentor = await signInUser('mentor')
      const topic = await createTopic(mentor, MID_LEVEL)
      const res = await reviewTopic(admin, topic.id, {
        status: 'approved',
        rejectionReason: 'Not used',
      })
      expect(res.status, res.text).toBe(200)
      expect(res.body).toMatchObject({ status: 'approved', rejectionReason: null })
    })
  })

  describe('rejecting', () => {
    it('rejects with a reason and tells the mentor the reason', async () => {
      const mentor = await signInUser('mentor')
      const topic = await createTopic(mentor, MID_LEVEL)
      const res = await reviewTopic(admin, topic.id, {
        status: 'rejected',
        rejectionReason: 'Please narrow the scope',
      })
      expect(res.status, res.text).toBe(200)
      expect(res.body).toMatchObject({
        status: 'rejected',
        rejectionReason: 'Please narrow the scope',
      })
      const stored = (await mentor.get(`/api/topics/${topic.id}`)).body
      expect(stored).toMatchObject({
        status: 'rejected',
        rejectionReason: 'Please narrow the scope',
      })
      const notes = await notificationsOf(mentor, 'topic_rejected')
      expect(notes).toHaveLength(1)
      expect(notes[0].message).toContain(topic.subject)
      expect(notes[0].message).toContain('Please narrow the scope')
    })

    it('rejects without a reason (reason null)', async () => {
      const mentor = await signInUser('mentor')
      const topic = await createTopic(mentor, MID_LEVEL)
      const res = await reviewTopic(admin, topic.id, { status: 'rejected' })
      expect(res.status, res.text).toBe(200)
      expect(res.body).toMatchObject({ status: 'rejected', rejectionReason: null })
      const notes = await notificationsOf(mentor, 'topic_rejected')
      expect(notes).toHaveLength(1)
      expect(notes[0].message).toContain(topic.subject)
    })

    it.each([null, '', '   '])('treats the reason %j as no reason', async (rejectionReason) => {
      const mentor = await signInUser('mentor')
      const topic = await createTopic(mentor, MID_LEVEL)
      const res = await reviewTopic(admin, topic.id, { status: 'rejected', rejectionReason })
      expect(res.status, res.text).toBe(200)
      expect(res.body.rejectionReason).toBeNull()
    })

    it('trims the reason', async () => {
      const mentor = await signInUser('mentor')
      const topic = await createTopic(mentor, MID_LEVEL)
      const res = await reviewTopic(admin, topic.id, {
        status: 'rejected',
        rejectionReason: '  Too broad  ',
      })
      expect(res.body.rejectionReason).toBe('Too broad')
    })

    it('keeps a rejected topic hidden from other users', async () => {
      const mentor = await signInUser('mentor')
      const other = await signInUser('other')
      const topic = await createTopic(mentor, MID_LEVEL)
      await reviewTopic(admin, topic.id, { status: 'rejected' })
      expectReadableProblem(await other.get(`/api/topics/${topic.id}`), 404, 'Topic not found')
    })
  })

  describe('refusals', () => {
    it('refuses the mentor (not an admin) with 403 and changes nothing', async () => {
      const mentor = await signInUser('mentor')
      const topic = await createTopic(mentor, MID_LEVEL)
      const res = await reviewTopic(mentor, topic.id, { status: 'approved' })
      expectReadableProblem(res, 403, 'Only administrators can review topics')
      expect(await statusOf(server, topic.id)).toBe('proposed')
      expect(await notificationsOf(mentor, 'topic_approved')).toEqual([])
    })

    it('refuses any other non-admin with 403 and changes nothing', async () => {
      const mentor = await signInUser('mentor')
      const other = await signInUser('other')
      const topic = await createTopic(mentor, MID_LEVEL)
      const res = await reviewTopic(other, topic.id, { status: 'approved' })
      expectReadableProblem(res, 403, 'Only administrators can review topics')
      expect(await statusOf(server, topic.id)).toBe('proposed')
    })

    it('refuses a non-admin with 403 on a public topic too', async () => {
      const mentor = await signInUser('mentor')
      const other = await signInUser('other')
      const topic = await createTopic(mentor, MID_LEVEL)
      await reviewTopic(admin, topic.id, { status: 'approved' })
      const res = await reviewTopic(other, topic.id, { status: 'rejected' })
      expectReadableProblem(res, 403, 'Only administrators can review topics')
      expect(await statusOf(server, topic.id)).toBe('approved')
    })

    it('refuses an anonymous caller with 401', async () => {
      const mentor = await signInUser('mentor')
      const topic = await createTopic(mentor, MID_LEVEL)
      expectReadableProblem(
        await reviewTopic(server.anonymous(), topic.id, { status: 'approved' }),
        401,
      )
      expect(await statusOf(server, topic.id)).toBe('proposed')
    })

    it.each([
      ['approved', 'approved'],
      ['rejected', 'approved'],
      ['approved', 'rejected'],
      ['rejected', 'rejected'],
    ])('refuses to review an %s topic again (as %s) with 409', async (first, second) => {
      const mentor = await signInUser('mentor')
      const topic = await createTopic(mentor, MID_LEVEL)
      expect((await reviewTopic(admin, topic.id, { status: first })).status).toBe(200)
      const res = await reviewTopic(admin, topic.id, { status: second })
      expectReadableProblem(
        res,
        409,
        `This topic is ${first}; only proposed topics can be reviewed`,
      )
      expect(await statusOf(server, topic.id)).toBe(first)
    })

    it.each(['started', 'concluded'])('refuses to review a %s topic with 409', async (status) => {
      const mentor = await signInUser('mentor')
      const topic = await createTopic(mentor, MID_LEVEL)
      await server.sql`
        UPDATE topics SET status = ${status}::topic_status, mentor_feedback = 'Done'
        WHERE id = ${topic.id}`
      const res = await reviewTopic(admin, topic.id, { status: 'approved' })
      expectReadableProblem(res, 409, 'only proposed topics can be reviewed')
      expect(await statusOf(server, topic.id)).toBe(status)
    })

    it.each([
      [{ status: 'maybe' }, 'Status must be approved or rejected'],
      [{ status: 'started' }, 'Status must be approved or rejected'],
      [{ status: 'proposed' }, 'Status must be approved or rejected'],
      [{}, 'Status must be approved or rejected'],
      [{ status: 'approved', note: 'x' }, 'note'],
      [{ status: 'rejected', rejectionReason: 42 }, 'rejectionReason'],
    ])('refuses the body %j with 400', async (body, detail) => {
      const mentor = await signInUser('mentor')
      const topic = await createTopic(mentor, MID_LEVEL)
      expectReadableProblem(await reviewTopic(admin, topic.id, body), 400, detail)
      expect(await statusOf(server, topic.id)).toBe('proposed')
    })

    it('refuses malformed JSON with 400', async () => {
      const mentor = await signInUser('mentor')
      const topic = await createTopic(mentor, MID_LEVEL)
      const res = await admin.post(`/api/admin/topics/${topic.id}/review`, undefined, {
        raw: '{"status":',
        headers: { 'content-type': 'application/json' },
      })
      expectReadableProblem(res, 400, 'not valid JSON')
    })

    it('applies only one of two reviews sent at the same time', async () => {
      const mentor = await signInUser('mentor')
      const otherAdmin = await signInAdmin(server)
      const topic = await createTopic(mentor, MID_LEVEL)
      const answers = await Promise.all([
        reviewTopic(admin, topic.id, { status: 'approved' }),
        reviewTopic(otherAdmin, topic.id, { status: 'rejected', rejectionReason: 'No' }),
      ])
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
      const winner = answers.find((a) => a.status === 200)?.body.status
      expect(await statusOf(server, topic.id)).toBe(winner)
      const approvals = await notificationsOf(mentor, 'topic_approved')
      const rejections = await notificationsOf(mentor, 'topic_rejected')
      expect(approvals.length + rejections.length).toBe(1)
    })

    it('answers 404 for a missing topic and for an id that is not a UUID', async () => {
      expectReadableProblem(
        await reviewTopic(admin, randomUUID(), { status: 'approved' }),
        404,
        'Topic not found',
      )
      expectReadableProblem(
        await reviewTopic(admin, 'abc', { status: 'approved' }),
        404,
        'Topic not found',
      )
    })
  })
})
