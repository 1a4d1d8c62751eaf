import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectReadableProblem, notificationsOf, signInAdmin, unique } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'

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

function topicBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    subject: unique('Topic'),
    description: '<p>Learn the basics together.</p>',
    maxMentees: 2,
    seniorityRequired: ['junior'],
    location: 'online',
    interests: [],
    ...overrides,
  }
}

async function createTopic(client: Client, overrides: Record<string, unknown> = {}) {
  const res = await client.post('/api/topics', topicBody(overrides))
  expect(res.status, res.text).toBe(201)
  return res.body
}

async function review(admin: Client, topicId: string, status: string, rejectionReason?: string) {
  const res = await admin.post(`/api/admin/topics/${topicId}/review`, { status, rejectionReason })
  expect(res.status, res.text).toBe(200)
  return res.body
}

async function createApprovedTopic(mentor: Client, overrides: Record<string, unknown> = {}) {
  const topic = await createTopic(mentor, overrides)
  return review(await signInAdmin(server), topic.id, 'approved')
}

function idsOf(topics: { id: string }[]): string[] {
  return topics.map((t) => t.id)
}

describe('POST /api/topics', () => {
  it('creates a proposed topic with the fields of spec section 3', async () => {
    const mentor = await signInUser('mentor')
    const res = await mentor.post('/api/topics', {
      subject: 'Intro to Rust',
      description: '<p>Ownership and borrowing.</p>',
      maxMentees: 2,
      seniorityRequired: ['junior', 'mid'],
      location: 'both',
      interests: ['Rust'],
    })
    expect(res.status, res.text).toBe(201)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      subject: 'Intro to Rust',
      description: '<p>Ownership and borrowing.</p>',
      maxMentees: 2,
      currentMentees: 0,
      seniorityRequired: ['junior', 'mid'],
      location: 'both',
      interests: ['Rust'],
      status: 'proposed',
      mentorId: mentor.user?.id,
      mentor: {
        id: mentor.user?.id,
        username: mentor.user?.username,
        full_name: expect.any(String),
        profileImage: null,
      },
      mentorFeedback: null,
      rejectionReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
  })

  it('defaults location to online, interests to [] and description to empty', async () => {
    const mentor = await signInUser('mentor')
    const res = await mentor.post('/api/topics', {
      subject: 'Defaults',
      maxMentees: 1,
      seniorityRequired: ['senior'],
    })
    expect(res.status, res.text).toBe(201)
    expect(res.body).toMatchObject({
      location: 'online',
      interests: [],
      description: '',
      maxMentees: 1,
    })
  })

  it('trims the subject', async () => {
    const mentor = await signInUser('mentor')
    const topic = await createTopic(mentor, { subject: '  Spaced out  ' })
    expect(topic.subject).toBe('Spaced out')
  })

  it('stores the topic so the mentor can read it back', async () => {
    const mentor = await signInUser('mentor')
    const topic = await createTopic(mentor)
    const res = await mentor.get(`/api/topics/${topic.id}`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(topic)
  })

  it('answers a create and an edit exactly as a read of the topic right after', async () => {
    const admin = await signInAdmin(server)
    const mentor = await signInUser('mentor')
    // The name single sign-on gave them, read with their session.
    const fullName = unique('Ada Mentor')
    await server.sql`UPDATE users SET full_name = ${fullName} WHERE id = ${mentor.user?.id ?? ''}`
    const created = await mentor.post(
      '/api/topics',
      topicBody({ interests: [unique('Answer interest')], location: 'in-person' }),
    )
    expect(created.status, created.text).toBe(201)
    const id = created.body.id
    expect(created.text).toBe((await mentor.get(`/api/topics/${id}`)).text)
    // Named as a person in the review notification, from the same answer.
    expect(created.body.mentor.full_name).toBe(fullName)
    const name = created.body.mentor.full_name
    const notes = await notificationsOf(admin, 'topic_for_review')
    expect(notes.map((n) => n.message)).toContain(
      `${name} proposed "${created.body.subject}". It is waiting for your review.`,
    )
    const edited = await mentor.patch(`/api/topics/${id}`, topicBody({ maxMentees: 1 }))
    expect(edited.status, edited.text).toBe(200)
    expect(edited.text).toBe((await mentor.get(`/api/topics/${id}`)).text)
    // An administrator editing a rejected topic: the answer as the administrator reads it.
    await review(admin, id, 'rejected', 'Needs more detail')
    const resubmitted = await admin.patch(`/api/topics/${id}`, topicBody({ subject: 'By admin' }))
    expect(resubmitted.status, resubmitted.text).toBe(200)
    expect(resubmitted.body).toMatchObject({ status: 'proposed', rejectionReason: null })
    expect(resubmitted.text).toBe((await admin.get(`/api/topics/${id}`)).text)
  })

  it('notifies every administrator that a topic waits for review', async () => {
    const admin = await signInAdmin(server)
    const otherAdmin = await signInAdmin(server)
    const mentor = await signInUser('mentor')
    const topic = await createTopic(mentor)
    for (const a of [admin, otherAdmin]) {
      const notes = await notificationsOf(a, 'topic_for_review')
      const note = notes.find((n) => n.message.includes(topic.subject))
      expect(note).toMatchObject({ title: expect.any(String), read: false })
    }
    expect(await notificationsOf(mentor, 'topic_for_review')).toEqual([])
  })

  it('does not notify an administrator about their own topic', async () => {
    const admin = await signInAdmin(server)
    const topic = await createTopic(admin)
    const notes = await notificationsOf(admin, 'topic_for_review')
    expect(notes.filter((n) => n.message.includes(topic.subject))).toEqual([])
  })

  it('honours a client-chosen id', async () => {
    const mentor = await signInUser('mentor')
    const id = randomUUID()
    const topic = await createTopic(mentor, { id })
    expect(topic.id).toBe(id)
    expect((await mentor.get(`/api/topics/${id}`)).body.id).toBe(id)
  })

  it('refuses to reuse an id with 409 and leaves the first topic as it was', async () => {
    const mentor = await signInUser('mentor')
    const id = randomUUID()
    const first = await createTopic(mentor, { id, subject: 'First' })
    const res = await mentor.post('/api/topics', topicBody({ id, subject: 'Second' }))
    expectReadableProblem(res, 409, 'already exists')
    expect((await mentor.get(`/api/topics/${id}`)).body).toEqual(first)
  })

  it('refuses an id that is not a UUID', async () => {
    const mentor = await signInUser('mentor')
    const res = await mentor.post('/api/topics', topicBody({ id: 'my-topic' }))
    expectReadableProblem(res, 400)
    expect(res.body.errors).toContainEqual(expect.objectContaining({ path: 'id' }))
  })

  it('adds new free-text interests to GET /api/interests, once regardless of case', async () => {
    const mentor = await signInUser('mentor')
    const interest = unique('Quantum Basket Weaving')
    const topic = await createTopic(mentor, {
      interests: [interest, interest.toUpperCase(), ' Rust '],
    })
    expect(topic.interests).toEqual([interest, 'Rust'])
    await createTopic(mentor, { interests: [interest.toLowerCase()] })
    const res = await mentor.get('/api/interests')
    expect(res.status).toBe(200)
    const matches = res.body.filter((i: string) => i.toLowerCase() === interest.toLowerCase())
    expect(matches).toEqual([interest])
    expect(res.body).toContain('Rust')
  })

  it('stores the description sanitised and answers it sanitised on GET', async () => {
    const mentor = await signInUser('mentor')
    const description =
      '<p onclick="steal()">Hello <b>bold</b></p><script>alert(1)</script>' +
      '<img src=x onerror=alert(1)><a href="javascript:alert(1)">bad</a>' +
      '<iframe src="https://evil.example"></iframe><a href="https://ok.example">ok</a>'
    const created = await createTopic(mentor, { description })
    const expected =
      '<p>Hello <strong>bold</strong></p>' +
      'bad' +
      '<a href="https://ok.example" target="_blank" rel="noopener noreferrer nofollow">ok</a>'
    expect(created.description).toBe(expected)
    expect((await mentor.get(`/api/topics/${created.id}`)).body.description).toBe(expected)
    const [row] = await server.sql`SELECT description FROM topics WHERE id = ${created.id}`
    expect(row?.description).toBe(expected)
  })

  describe('validation', () => {
    it('refuses a missing subject with "Subject is required"', async () => {
      const mentor = await signInUser('mentor')
      const { subject: _, ...body } = topicBody()
      const res = await mentor.post('/api/topics', body)
      expectReadableProblem(res, 400, 'Subject is required')
      expect(res.body.errors).toContainEqual({ path: 'subject', message: 'Subject is required' })
    })

    it('refuses a blank subject with "Subject is required"', async () => {
      const mentor = await signInUser('mentor')
      const res = await mentor.post('/api/topics', topicBody({ subject: '   ' }))
      expectReadableProblem(res, 400, 'Subject is required')
    })

    it('refuses an empty seniorityRequired with the spec message', async () => {
      const mentor = await signInUser('mentor')
      const res = await mentor.post('/api/topics', topicBody({ seniorityRequired: [] }))
      expectReadableProblem(res, 400, 'At least one seniority level is required')
      expect(res.body.errors).toContainEqual({
        path: 'seniorityRequired',
        message: 'At least one seniority level is required',
      })
    })

    it('refuses a missing seniorityRequired with the spec message', async () => {
      const mentor = await signInUser('mentor')
      const { seniorityRequired: _, ...body } = topicBody()
      const res = await mentor.post('/api/topics', body)
      expectReadableProblem(res, 400, 'At least one seniority level is required')
    })

    it('refuses an unknown seniority level', async () => {
      const mentor = await signInUser('mentor')
      const res = await mentor.post('/api/topics', topicBody({ seniorityRequired: ['expert'] }))
      expectReadableProblem(res, 400, 'Seniority must be one of junior, mid or senior')
    })

    it.each([3, 0, -1, 1.5, 'abc'])('refuses maxMentees %j', async (maxMentees) => {
      const mentor = await signInUser('mentor')
      const res = await mentor.post('/api/topics', topicBody({ maxMentees }))
      expectReadableProblem(res, 400, 'Maximum mentees must be')
      expect(res.body.errors).toContainEqual(expect.objectContaining({ path: 'maxMentees' }))
    })

    // A number is 1 or 2; JSON true and [2] are not numbers, whatever Number() makes of them.
    it.each([
      ['true', true],
      ['[2]', [2]],
      ['null', null],
    ])('refuses maxMentees %s, which is not a number', async (_name, maxMentees) => {
      const mentor = await signInUser('mentor')
      const res = await mentor.post('/api/topics', topicBody({ maxMentees }))
      expectReadableProblem(res, 400, 'Maximum mentees must be')
    })

    it('reads maxMentees "2" sent as a string of digits as 2', async () => {
      const mentor = await signInUser('mentor')
      expect((await createTopic(mentor, { maxMentees: '2' })).maxMentees).toBe(2)
    })

    it('refuses a missing maxMentees', async () => {
      const mentor = await signInUser('mentor')
      const { maxMentees: _, ...body } = topicBody()
      const res = await mentor.post('/api/topics', body)
      expectReadableProblem(res, 400, 'Maximum mentees')
    })

    it('refuses location "mars"', async () => {
      const mentor = await signInUser('mentor')
      const res = await mentor.post('/api/topics', topicBody({ location: 'mars' }))
      expectReadableProblem(res, 400, 'Location must be one of online, in-person or both')
    })

    it('refuses an unknown field', async () => {
      const mentor = await signInUser('mentor')
      const res = await mentor.post('/api/topics', topicBody({ status: 'approved' }))
      expectReadableProblem(res, 400, 'status')
    })

    it('refuses interests that are not a list of strings', async () => {
      const mentor = await signInUser('mentor')
      const res = await mentor.post('/api/topics', topicBody({ interests: [42] }))
      expectReadableProblem(res, 400)
      expect(res.body.errors).toContainEqual(expect.objectContaining({ path: 'interests.0' }))
    })

    it('refuses a body that is not an object', async () => {
      const mentor = await signInUser('mentor')
      expectReadableProblem(await mentor.post('/api/topics', [topicBody()]), 400)
      expectReadableProblem(await mentor.post('/api/topics', null), 400)
    })

    it('refuses malformed JSON with 400', async () => {
      const mentor = await signInUser('mentor')
      const res = await mentor.post('/api/topics', undefined, {
        raw: '{bad',
        headers: { 'content-type': 'application/json' },
      })
      expectReadableProblem(res, 400, 'not valid JSON')
    })

    it('refuses a body that is not JSON with 415', async () => {
      const mentor = await signInUser('mentor')
      const res = await mentor.post('/api/topics', undefined, {
        raw: JSON.stringify(topicBody()),
        headers: { 'content-type': 'text/plain' },
      })
      expectReadableProblem(res, 415, 'JSON')
    })

    it('creates nothing when it refuses', async () => {
      const mentor = await signInUser('mentor')
      await mentor.post('/api/topics', topicBody({ maxMentees: 3 }))
      const res = await mentor.get(`/api/topics/mentor/${mentor.user?.id}`)
      expect(res.body).toEqual([])
    })
  })

  it('refuses an anonymous caller with 401', async () => {
    const res = await server.anonymous().post('/api/topics', topicBody())
    expectReadableProblem(res, 401, 'not signed in')
  })
})

describe('topic visibility', () => {
  async function setUp() {
    const mentor = await signInUser('mentor')
    const other = await signInUser('other')
    const admin = await signInAdmin(server)
    const proposed = await createTopic(mentor)
    const rejected = await createTopic(mentor)
    await review(admin, rejected.id, 'rejected', 'Too vague')
    const approved = await createTopic(mentor)
    await review(admin, approved.id, 'approved')
    const started = await createTopic(mentor)
    await review(admin, started.id, 'approved')
    expect((await mentor.post(`/api/topics/${started.id}/start`)).status).toBe(200)
    const concluded = await createTopic(mentor)
    await review(admin, concluded.id, 'approved')
    expect((await mentor.post(`/api/topics/${concluded.id}/start`)).status).toBe(200)
    const res = await mentor.post(`/api/topics/${concluded.id}/conclude`, {
      mentorFeedback: 'Went well',
    })
    expect(res.status).toBe(200)
    return { mentor, other, admin, proposed, rejected, approved, started, concluded }
  }

  let world: Awaited<ReturnType<typeof setUp>>
  beforeAll(async () => {
    world = await setUp()
  })

  it('lists proposed and rejected topics only to their mentor and admins', async () => {
    const { mentor, other, admin, proposed, rejected } = world
    for (const viewer of [mentor, admin]) {
      const ids = idsOf((await viewer.get('/api/topics')).body)
      expect(ids).toContain(proposed.id)
      expect(ids).toContain(rejected.id)
    }
    const ids = idsOf((await other.get('/api/topics')).body)
    expect(ids).not.toContain(proposed.id)
    expect(ids).not.toContain(rejected.id)
  })

  it('lists approved, started and concluded topics to everyone', async () => {
    const { mentor, other, admin, approved, started, concluded } = world
    for (const viewer of [mentor, other, admin]) {
      const ids = idsOf((await viewer.get('/api/topics')).body)
      expect(ids).toEqual(expect.arrayContaining([approved.id, started.id, concluded.id]))
    }
  })

  it('answers 404 "Topic not found" for a hidden topic', async () => {
    const { other, proposed, rejected } = world
    for (const topic of [proposed, rejected]) {
      expectReadableProblem(await other.get(`/api/topics/${topic.id}`), 404, 'Topic not found')
    }
  })

  it('lets the mentor and admins read proposed and rejected topics', async () => {
    const { mentor, admin, proposed, rejected } = world
    for (const viewer of [mentor, admin]) {
      expect((await viewer.get(`/api/topics/${proposed.id}`)).body.status).toBe('proposed')
      const res = await viewer.get(`/api/topics/${rejected.id}`)
      expect(res.body).toMatchObject({ status: 'rejected', rejectionReason: 'Too vague' })
    }
  })

  it('lets everyone read approved, started and concluded topics', async () => {
    const { other, approved, started, concluded } = world
    expect((await other.get(`/api/topics/${approved.id}`)).body.status).toBe('approved')
    expect((await other.get(`/api/topics/${started.id}`)).body.status).toBe('started')
    const res = await other.get(`/api/topics/${concluded.id}`)
    expect(res.body).toMatchObject({ status: 'concluded', mentorFeedback: 'Went well' })
  })

  it('answers 404 for a topic that does not exist', async () => {
    const res = await world.admin.get(`/api/topics/${randomUUID()}`)
    expectReadableProblem(res, 404, 'Topic not found')
  })

  it('answers 404 "Topic not found" for an id that is not a UUID', async () => {
    expectReadableProblem(await world.admin.get('/api/topics/not-a-uuid'), 404, 'Topic not found')
  })

  it('refuses anonymous reads with 401', async () => {
    expectReadableProblem(await server.anonymous().get('/api/topics'), 401)
    expectReadableProblem(await server.anonymous().get(`/api/topics/${world.approved.id}`), 401)
  })

  describe('GET /api/topics/mentor/{userId}', () => {
    it('shows the mentor all of their own topics', async () => {
      const { mentor, proposed, rejected, approved, started, concluded } = world
      const res = await mentor.get(`/api/topics/mentor/${mentor.user?.id}`)
      expect(res.status).toBe(200)
      expect(idsOf(res.body).sort()).toEqual(
        idsOf([proposed, rejected, approved, started, concluded]).sort(),
      )
    })

    it('shows an admin all of the mentor topics', async () => {
      const { mentor, admin } = world
      const res = await admin.get(`/api/topics/mentor/${mentor.user?.id}`)
      expect(res.body).toHaveLength(5)
    })

    it('shows another user only the public topics', async () => {
      const { mentor, other, approved, started, concluded } = world
      const res = await other.get(`/api/topics/mentor/${mentor.user?.id}`)
      expect(res.status).toBe(200)
      expect(idsOf(res.body).sort()).toEqual(idsOf([approved, started, concluded]).sort())
    })

    it('answers only the topics of that mentor', async () => {
      const { other } = world
      await createTopic(other)
      const res = await other.get(`/api/topics/mentor/${other.user?.id}`)
      expect(res.body).toHaveLength(1)
      expect(res.body[0].mentorId).toBe(other.user?.id)
    })

    it('answers 404 for an unknown user', async () => {
      const res = await world.admin.get(`/api/topics/mentor/${randomUUID()}`)
      expectReadableProblem(res, 404, 'User not found')
    })

    it('answers 404 for a user id that is not a UUID', async () => {
      expectReadableProblem(await world.admin.get('/api/topics/mentor/nobody'), 404)
    })
  })
})

describe('GET /api/topics filters', () => {
  type Made = { id: string; location: string; seniorityRequired: string[] }
  let viewer: Client
  let online: Made
  let inPerson: Made
  let both: Made
  let proposedOnline: Made

  beforeAll(async () => {
    const mentor = await signInUser('mentor')
    viewer = await signInUser('viewer')
    online = await createApprovedTopic(mentor, {
      location: 'online',
      seniorityRequired: ['junior'],
    })
    inPerson = await createApprovedTopic(mentor, {
      location: 'in-person',
      seniorityRequired: ['mid', 'senior'],
    })
    both = await createApprovedTopic(mentor, { location: 'both', seniorityRequired: ['senior'] })
    proposedOnline = await createTopic(viewer, { location: 'online' })
  })

  async function list(query: string) {
    const res = await viewer.get(`/api/topics?${query}`)
    expect(res.status, res.text).toBe(200)
    return res.body as Made[]
  }

  function mine(topics: Made[]): string[] {
    const ids = new Set([online.id, inPerson.id, both.id, proposedOnline.id])
    return idsOf(topics).filter((id) => ids.has(id))
  }

  it('location=online includes online and both', async () => {
    const topics = await list('location=online')
    expect(mine(topics).sort()).toEqual([online.id, both.id, proposedOnline.id].sort())
    for (const t of topics) expect(['online', 'both']).toContain(t.location)
  })

  it('location=in-person includes in-person and both', async () => {
    const topics = await list('location=in-person')
    expect(mine(topics).sort()).toEqual([inPerson.id, both.id].sort())
    for (const t of topics) expect(['in-person', 'both']).toContain(t.location)
  })

  it('location=both includes only both', async () => {
    const topics = await list('location=both')
    expect(mine(topics)).toEqual([both.id])
    for (const t of topics) expect(t.location).toBe('both')
  })

  it('seniority keeps topics that require that level', async () => {
    const topics = await list('seniority=senior')
    expect(mine(topics).sort()).toEqual([inPerson.id, both.id].sort())
    for (const t of topics) expect(t.seniorityRequired).toContain('senior')
  })

  it('status keeps topics of that status', async () => {
    expect(mine(await list('status=proposed'))).toEqual([proposedOnline.id])
    expect(mine(await list('status=approved')).sort()).toEqual(
      [online.id, inPerson.id, both.id].sort(),
    )
  })

  it('status=proposed still hides other mentors proposed topics', async () => {
    for (const t of await list('status=proposed')) expect(t.id).toBe(proposedOnline.id)
  })

  it('combines filters', async () => {
    expect(mine(await list('location=online&seniority=senior'))).toEqual([both.id])
    expect(mine(await list('location=in-person&seniority=junior'))).toEqual([])
  })

  it('without filters lists everything visible', async () => {
    expect(mine(await list('')).sort()).toEqual(
      [online.id, inPerson.id, both.id, proposedOnline.id].sort(),
    )
  })

  it.each([
    ['location=mars', 'Location must be one of online, in-person or both'],
    ['seniority=expert', 'Seniority must be one of junior, mid or senior'],
    ['status=archived', 'status'],
    ['location=', 'Location'],
  ])('refuses %s with 400', async (query, detail) => {
    expectReadableProblem(await viewer.get(`/api/topics?${query}`), 400, detail)
  })
})

describe('PATCH /api/topics/{id}', () => {
  it('lets the mentor edit every field of a proposed topic', async () => {
    const mentor = await signInUser('mentor')
    const topic = await createTopic(mentor)
    const res = await mentor.patch(`/api/topics/${topic.id}`, {
      subject: 'Renamed',
      description: '<p>New <i>text</i></p>',
      maxMentees: 1,
      seniorityRequired: ['mid'],
      location: 'in-person',
      interests: ['Go'],
    })
    expect(res.status, res.text).toBe(200)
    expect(res.body).toMatchObject({
      id: topic.id,
      subject: 'Renamed',
      description: '<p>New <em>text</em></p>',
      maxMentees: 1,
      seniorityRequired: ['mid'],
      location: 'in-person',
      interests: ['Go'],
      status: 'proposed',
    })
    expect((await mentor.get(`/api/topics/${topic.id}`)).body).toEqual(res.body)
  })

  it('lets an admin edit someone else topic', async () => {
    const mentor = await signInUser('mentor')
    const admin = await signInAdmin(server)
    const topic = await createTopic(mentor)
    const res = await admin.patch(`/api/topics/${topic.id}`, topicBody({ subject: 'By admin' }))
    expect(res.status, res.text).toBe(200)
    expect(res.body).toMatchObject({ subject: 'By admin', mentorId: mentor.user?.id })
  })

  it('refuses another user with 403 and changes nothing', async () => {
    const mentor = await signInUser('mentor')
    const other = await signInUser('other')
    const topic = await createApprovedTopic(mentor)
    const res = await other.patch(`/api/topics/${topic.id}`, topicBody({ subject: 'Hijacked' }))
    expectReadableProblem(res, 403, 'Only the mentor of this topic or an administrator can edit it')
    expect((await mentor.get(`/api/topics/${topic.id}`)).body.subject).toBe(topic.subject)
  })

  it('answers 404 to another user for a topic they cannot see', async () => {
    const mentor = await signInUser('mentor')
    const other = await signInUser('other')
    const topic = await createTopic(mentor)
    const res = await other.patch(`/api/topics/${topic.id}`, topicBody())
    expectReadableProblem(res, 404, 'Topic not found')
  })

  it('answers 404 for a missing topic and 401 without a session', async () => {
    const mentor = await signInUser('mentor')
    expectReadableProblem(await mentor.patch(`/api/topics/${randomUUID()}`, topicBody()), 404)
    expectReadableProblem(
      await mentor.patch('/api/topics/nope', topicBody()),
      404,
      'Topic not found',
    )
    expectReadableProblem(
      await server.anonymous().patch(`/api/topics/${randomUUID()}`, topicBody()),
      401,
    )
  })

  it.each(['started', 'concluded'])('refuses to edit a %s topic with 409', async (status) => {
    const mentor = await signInUser('mentor')
    const admin = await signInAdmin(server)
    const topic = await createTopic(mentor)
    await server.sql`
      UPDATE topics SET status = ${status}::topic_status, mentor_feedback = 'Done'
      WHERE id = ${topic.id}`
    for (const editor of [mentor, admin]) {
      const res = await editor.patch(`/api/topics/${topic.id}`, topicBody({ subject: 'Late' }))
      expectReadableProblem(res, 409, `This topic is ${status} and can no longer be edited`)
    }
    expect((await mentor.get(`/api/topics/${topic.id}`)).body.subject).toBe(topic.subject)
  })

  it('resubmits a rejected topic: proposed, reason cleared, admins notified', async () => {
    const mentor = await signInUser('mentor')
    const admin = await signInAdmin(server)
    const topic = await createTopic(mentor)
    await review(admin, topic.id, 'rejected', 'Needs more detail')
    const subject = unique('Resubmitted')
    const res = await mentor.patch(`/api/topics/${topic.id}`, topicBody({ subject }))
    expect(res.status, res.text).toBe(200)
    expect(res.body).toMatchObject({ status: 'proposed', rejectionReason: null, subject })
    const notes = await notificationsOf(admin, 'topic_for_review')
    expect(notes.filter((n) => n.message.includes(subject))).toHaveLength(1)
  })

  it('keeps an approved topic approved', async () => {
    const mentor = await signInUser('mentor')
    const topic = await createApprovedTopic(mentor)
    const res = await mentor.patch(`/api/topics/${topic.id}`, topicBody({ subject: 'Still open' }))
    expect(res.status, res.text).toBe(200)
    expect(res.body).toMatchObject({ status: 'approved', subject: 'Still open' })
  })

  it('does not notify admins when a proposed or approved topic is edited', async () => {
    const mentor = await signInUser('mentor')
    const admin = await signInAdmin(server)
    const proposed = await createTopic(mentor)
    const approved = await createApprovedTopic(mentor)
    const subject = unique('Quiet edit')
    await mentor.patch(`/api/topics/${proposed.id}`, topicBody({ subject }))
    await mentor.patch(`/api/topics/${approved.id}`, topicBody({ subject }))
    const notes = await notificationsOf(admin, 'topic_for_review')
    expect(notes.filter((n) => n.message.includes(subject))).toEqual([])
  })

  it('refuses a maxMentees lower than the accepted mentees with 409', async () => {
    const mentor = await signInUser('mentor')
    const topic = await createApprovedTopic(mentor, { maxMentees: 2 })
    for (const prefix of ['mentee', 'mentee']) {
      const mentee = await signInUser(prefix)
      const applied = await mentee.post(`/api/topics/${topic.id}/apply`)
      expect(applied.status, applied.text).toBe(201)
      const accepted = await mentor.patch(`/api/applications/${applied.body.id}`, {
        status: 'accepted',
      })
      expect(accepted.status, accepted.text).toBe(200)
    }
    const res = await mentor.patch(`/api/topics/${topic.id}`, topicBody({ maxMentees: 1 }))
    expectReadableProblem(res, 409, 'already has 2 accepted mentees')
    const after = (await mentor.get(`/api/topics/${topic.id}`)).body
    expect(after).toMatchObject({ maxMentees: 2, currentMentees: 2 })
  })

  it('leaves no trace of a refused edit, sent alone or replayed in a push: row, interests, removals', async () => {
    const mentor = await signInUser('mentor')
    const other = await signInUser('other')
    const admin = await signInAdmin(server)
    const full = await createApprovedTopic(mentor, { maxMentees: 2 })
    for (const prefix of ['mentee', 'mentee']) {
      const applied = await (await signInUser(prefix)).post(`/api/topics/${full.id}/apply`)
      expect(applied.status, applied.text).toBe(201)
      const accepted = await mentor.patch(`/api/applications/${applied.body.id}`, {
        status: 'accepted',
      })
      expect(accepted.status, accepted.text).toBe(200)
    }
    const approved = await createApprovedTopic(mentor)
    const started = await createApprovedTopic(mentor)
    await server.sql`UPDATE topics SET status = 'started' WHERE id = ${started.id}`
    const proposed = await createTopic(mentor)
    const rowsOf = async () =>
      server.sql`
        SELECT to_jsonb(t) AS row FROM topics t WHERE id IN (${full.id}, ${approved.id}, ${started.id}, ${proposed.id})
        ORDER BY id`
    const before = await rowsOf()
    const removalsBefore = await server.sql`SELECT count(*)::int AS n FROM sync_removals`
    const interest = unique('Refused-interest')
    // Each: who sends it, to which topic, with what, and the refusal.
    const refusals: [Client, string, Record<string, unknown>, number, string][] = [
      [other, approved.id, { subject: 'Hijacked' }, 403, 'Only the mentor'],
      [mentor, started.id, { subject: 'Late' }, 409, 'can no longer be edited'],
      [admin, started.id, { subject: 'Late' }, 409, 'can no longer be edited'],
      [mentor, full.id, { maxMentees: 1 }, 409, 'already has 2 accepted mentees'],
      [other, proposed.id, { subject: 'Unseen' }, 404, 'Topic not found'],
      [mentor, approved.id, { id: randomUUID() }, 400, 'does not match'],
    ]
    for (const [client, id, change, status, detail] of refusals) {
      const edit = topicBody({ interests: [interest], ...change })
      expectReadableProblem(await client.patch(`/api/topics/${id}`, edit), status, detail)
      // Replayed, followed by a change of the sender's own that applies: the batch goes on.
      const own = await client.post('/api/topics', topicBody())
      expect(own.status, own.text).toBe(201)
      const pushed = await client.post('/api/sync/push', {
        clientId: 'refused-edit',
        mutations: [
          { id: randomUUID(), method: 'PATCH', path: `/api/topics/${id}`, body: edit },
          {
            id: randomUUID(),
            method: 'PATCH',
            path: `/api/topics/${own.body.id}`,
            body: topicBody({ subject: 'Applied after a refusal' }),
          },
        ],
      })
      expect(pushed.status, pushed.text).toBe(200)
      expect(pushed.body.results.map((r: { status: number }) => r.status)).toEqual([status, 200])
      expect(JSON.stringify(pushed.body.results[0].body)).toContain(detail)
      expect((await client.get(`/api/topics/${own.body.id}`)).body.subject).toBe(
        'Applied after a refusal',
      )
    }
    expect(await rowsOf()).toEqual(before)
    expect(await server.sql`SELECT name FROM interests WHERE name = ${interest}`).toEqual([])
    expect(await server.sql`SELECT count(*)::int AS n FROM sync_removals`).toEqual(removalsBefore)
  })

  it('validates the body like creation', async () => {
    const mentor = await signInUser('mentor')
    const topic = await createTopic(mentor)
    expectReadableProblem(
      await mentor.patch(`/api/topics/${topic.id}`, topicBody({ subject: '' })),
      400,
      'Subject is required',
    )
    expectReadableProblem(
      await mentor.patch(`/api/topics/${topic.id}`, topicBody({ seniorityRequired: [] })),
      400,
      'At least one seniority level is required',
    )
    expectReadableProblem(
      await mentor.patch(`/api/topics/${topic.id}`, topicBody({ maxMentees: 3 })),
      400,
      'Maximum mentees',
    )
  })

  it('refuses a body id that names another topic', async () => {
    const mentor = await signInUser('mentor')
    const topic = await createTopic(mentor)
    const res = await mentor.patch(`/api/topics/${topic.id}`, topicBody({ id: randomUUID() }))
    expectReadableProblem(res, 400, 'does not match')
  })

  it('sanitises the edited description', async () => {
    const mentor = await signInUser('mentor')
    const topic = await createTopic(mentor)
    const res = await mentor.patch(
      `/api/topics/${topic.id}`,
      topicBody({ description: '<p>ok</p><svg onload=alert(1)></svg><a href="vbscript:x">v</a>' }),
    )
    expect(res.body.description).toBe('<p>ok</p>v')
  })
})
