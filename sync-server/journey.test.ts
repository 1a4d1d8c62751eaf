import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestServer, type TestServer } from './test/server.ts'

// The "done when": a client that read only the spec runs the whole
// programme over HTTP, and every refusal on the way is explained.
let server: TestServer
beforeAll(async () => {
  server = await startTestServer({ ADMIN_USERNAMES: 'chief' })
})
afterAll(() => server.stop())

test('a whole mentorship programme runs through the documented endpoints', async () => {
  const chief = await server.signIn('chief')
  const mentor = await server.signIn('grace.hopper')
  const ada = await server.signIn('ada')
  const linus = await server.signIn('linus')
  const margaret = await server.signIn('margaret')
  expect(chief.user?.isAdmin).toBe(true)

  // Profiles and preferences.
  expect(
    (
      await ada.patch('/api/users/ada', {
        seniority: 'junior',
        bio: 'New here',
        interests: ['Rust'],
      })
    ).status,
  ).toBe(200)
  expect((await linus.patch('/api/users/ada', { bio: 'hijack' })).status).toBe(403)
  const prefs = {
    emailNotifications: {
      newApplications: false,
      topicStatusUpdates: true,
      applicationStatusUpdates: true,
      newTopicsForReview: false,
    },
  }
  expect((await ada.patch('/api/user/notification-preferences', prefs)).body).toMatchObject(prefs)

  // Propose → review.
  const proposed = await mentor.post('/api/topics', {
    subject: 'Compilers from scratch',
    description: '<p>We build a <strong>tiny</strong> compiler.</p>',
    maxMentees: 1,
    seniorityRequired: ['junior', 'mid'],
    location: 'both',
    interests: ['Compilers'],
  })
  expect(proposed.status).toBe(201)
  const topicId = proposed.body.id
  expect((await ada.get(`/api/topics/${topicId}`)).status).toBe(404)
  expect(
    (await ada.post(`/api/admin/topics/${topicId}/review`, { status: 'approved' })).status,
  ).toBe(403)
  const review = (await chief.get('/api/notifications')).body.find(
    (n: { kind: string }) => n.kind === 'topic_for_review',
  )
  expect(review.message).toContain('Compilers from scratch')
  expect(
    (await chief.post(`/api/admin/topics/${topicId}/review`, { status: 'approved' })).body.status,
  ).toBe('approved')

  // Apply: two mentees for one place; the mentor cannot apply.
  expect((await mentor.post(`/api/topics/${topicId}/apply`)).status).toBe(403)
  const adaApp = await ada.post(`/api/topics/${topicId}/apply`)
  const linusApp = await linus.post(`/api/topics/${topicId}/apply`)
  expect([adaApp.status, linusApp.status]).toEqual([201, 201])
  expect((await ada.post(`/api/topics/${topicId}/apply`)).status).toBe(409)

  // Accept one, reject one with a reason; the topic is then full.
  expect(
    (await mentor.patch(`/api/applications/${adaApp.body.id}`, { status: 'accepted' })).body.status,
  ).toBe('accepted')
  expect(
    (await mentor.patch(`/api/applications/${linusApp.body.id}`, { status: 'rejected' })).status,
  ).toBe(400)
  const rejected = await mentor.patch(`/api/applications/${linusApp.body.id}`, {
    status: 'rejected',
    rejectionReason: 'The single place went to a junior engineer.',
  })
  expect(rejected.body).toMatchObject({
    status: 'rejected',
    rejectionReason: 'The single place went to a junior engineer.',
  })
  const full = await margaret.post(`/api/topics/${topicId}/apply`)
  expect(full.status).toBe(409)
  expect(full.body.detail).toMatch(/full/)

  // Mentees see Active / Rejected with the reason.
  expect((await ada.get('/api/my-applications')).body[0]).toMatchObject({
    status: 'accepted',
    topic: { subject: 'Compilers from scratch', mentor: { username: 'grace.hopper' } },
  })
  expect((await linus.get(`/api/topics/${topicId}/my-application`)).body.rejectionReason).toBe(
    'The single place went to a junior engineer.',
  )

  // Start and conclude; feedback only after conclusion and only from participants.
  expect((await chief.post(`/api/topics/${topicId}/start`)).status).toBe(403)
  expect((await mentor.post(`/api/topics/${topicId}/start`)).body.status).toBe('started')
  expect(
    (await ada.post(`/api/topics/${topicId}/feedback`, { feedback: 'Too early', rating: 5 }))
      .status,
  ).toBe(409)
  expect(
    (await mentor.post(`/api/topics/${topicId}/conclude`, { mentorFeedback: '  ' })).status,
  ).toBe(400)
  const concluded = await mentor.post(`/api/topics/${topicId}/conclude`, {
    mentorFeedback: 'Ada shipped a parser.',
  })
  expect(concluded.body).toMatchObject({
    status: 'concluded',
    mentorFeedback: 'Ada shipped a parser.',
    currentMentees: 1,
  })
  expect(
    (await ada.post(`/api/topics/${topicId}/feedback`, { feedback: 'Brilliant', rating: 5 }))
      .status,
  ).toBe(201)
  expect(
    (await mentor.post(`/api/topics/${topicId}/feedback`, { feedback: 'A keen mentee', rating: 4 }))
      .status,
  ).toBe(201)
  expect(
    (
      await linus.post(`/api/topics/${topicId}/feedback`, {
        feedback: 'I was not in it',
        rating: 1,
      })
    ).status,
  ).toBe(403)
  expect(
    (
      await ada.post(`/api/topics/${topicId}/feedback`, {
        feedback: 'Brilliant, really',
        rating: 4,
      })
    ).status,
  ).toBe(200)
  const feedback = (await linus.get(`/api/topics/${topicId}/feedback`)).body
  expect(
    feedback.map((f: { user: { username: string }; isMentor: boolean }) => [
      f.user.username,
      f.isMentor,
    ]),
  ).toEqual([
    ['grace.hopper', true],
    ['ada', false],
  ])

  // Notifications tell each side what happened; marking one read sticks.
  const adaNotes = (await ada.get('/api/notifications')).body as {
    id: string
    kind: string
    read: boolean
  }[]
  expect(adaNotes.map((n) => n.kind).sort()).toEqual([
    'application_accepted',
    'topic_concluded',
    'topic_started',
  ])
  const first = adaNotes[0]
  expect((await ada.patch(`/api/notifications/${first?.id}`)).body.read).toBe(true)
  expect((await linus.patch(`/api/notifications/${first?.id}`)).status).toBe(404)

  // Admins toggle admins; the change applies on the next request.
  expect((await chief.post(`/api/admin/users/${ada.user?.id}/toggle-admin`)).body.isAdmin).toBe(
    true,
  )
  expect((await ada.get('/api/user')).body.isAdmin).toBe(true)
  expect((await ada.post(`/api/admin/users/${ada.user?.id}/toggle-admin`)).status).toBe(403)

  // Edits after start are refused; the state is consistent in the database.
  expect(
    (
      await mentor.patch(`/api/topics/${topicId}`, {
        subject: 'x',
        maxMentees: 1,
        seniorityRequired: ['mid'],
      })
    ).status,
  ).toBe(409)
  const [row] = await server.sql<{ current: number; accepted: number }[]>`
    SELECT t.current_mentees::int AS current,
      (SELECT count(*)::int FROM applications a WHERE a.topic_id = t.id AND a.status = 'accepted') AS accepted
    FROM topics t WHERE t.id = ${topicId}`
  expect(row).toEqual({ current: 1, accepted: 1 })
})
