import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTopic, expectProblem, signInAdmin, unique } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'users-admin')
})
afterAll(async () => {
  await server?.stop()
})

const USER_KEYS = [
  'answersWithinDays',
  'bio',
  'full_name',
  'hasMentor',
  'id',
  'interests',
  'isAdmin',
  'lookingForMentor',
  'preferredLocation',
  'profileImage',
  'seniority',
  'username',
]

describe('GET /api/user', () => {
  it('answers the signed-in user in the spec shape', async () => {
    const name = unique('Self')
    const me = await server.signIn(name)

    const res = await me.get('/api/user')

    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(USER_KEYS)
    expect(res.body).toEqual({
      id: me.user?.id,
      username: name,
      full_name: expect.any(String),
      profileImage: null,
      seniority: null,
      bio: '',
      interests: [],
      isAdmin: false,
      lookingForMentor: false,
      preferredLocation: null,
      answersWithinDays: null,
      hasMentor: false,
    })
  })

  it('answers 401 problem+json without a session', async () => {
    expectProblem(await server.anonymous().get('/api/user'), 401, /not signed in/)
  })
})

describe('GET /api/users', () => {
  it('lists every user in the spec shape', async () => {
    const a = await server.signIn(unique('listed'))
    const res = await a.get('/api/users')

    expect(res.status).toBe(200)
    expect(Array.isArray(res.body)).toBe(true)
    const usernames = res.body.map((u: { username: string }) => u.username)
    expect(usernames).toContain(a.user?.username)
    expect(usernames).toContain('users-admin')
    for (const user of res.body) expect(Object.keys(user).sort()).toEqual(USER_KEYS)
  })

  it('answers 401 without a session', async () => {
    expectProblem(await server.anonymous().get('/api/users'), 401)
  })
})

describe('GET /api/users/{username}', () => {
  it('finds a profile whatever the case of the username', async () => {
    const name = unique('CaseUser')
    const owner = await server.signIn(name)
    const reader = await server.signIn(unique('reader'))

    for (const asked of [name, name.toLowerCase(), name.toUpperCase()]) {
      const res = await reader.get(`/api/users/${encodeURIComponent(asked)}`)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ id: owner.user?.id, username: name })
    }
  })

  it('answers 404 "User not found" for an unknown username', async () => {
    const reader = await server.signIn(unique('reader'))
    expectProblem(await reader.get('/api/users/nobody-here'), 404, /User not found/)
  })

  it('answers 401 without a session', async () => {
    expectProblem(await server.anonymous().get('/api/users/users-admin'), 401)
  })
})

describe('PATCH /api/users/{username}', () => {
  it('lets the owner set seniority, bio and interests', async () => {
    const name = unique('owner')
    const owner = await server.signIn(name)

    const res = await owner.patch(`/api/users/${name}`, {
      seniority: 'mid',
      bio: 'I like graphs.',
      interests: ['Graph Theory'],
    })

    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      username: name,
      seniority: 'mid',
      bio: 'I like graphs.',
      interests: ['Graph Theory'],
    })
    expect((await owner.get('/api/user')).body).toMatchObject({ seniority: 'mid' })
  })

  it('keeps fields that are left out and clears seniority with null', async () => {
    const name = unique('partial')
    const owner = await server.signIn(name)
    await owner.patch(`/api/users/${name}`, { seniority: 'senior', bio: 'Kept', interests: ['Go'] })

    const res = await owner.patch(`/api/users/${name}`, { seniority: null })

    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ seniority: null, bio: 'Kept', interests: ['Go'] })
  })

  it('lets an administrator edit another profile', async () => {
    const name = unique('edited')
    await server.signIn(name)

    const res = await admin.patch(`/api/users/${name.toUpperCase()}`, { bio: 'Set by admin' })

    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ username: name, bio: 'Set by admin' })
  })

  it('refuses another non-admin user with 403 and changes nothing', async () => {
    const name = unique('victim')
    const victim = await server.signIn(name)
    const other = await server.signIn(unique('meddler'))

    expectProblem(await other.patch(`/api/users/${name}`, { bio: 'Hacked' }), 403, /owner/)
    expect((await victim.get('/api/user')).body.bio).toBe('')
    expectProblem(await server.anonymous().patch(`/api/users/${name}`, { bio: 'x' }), 401)
  })

  it('answers 404 for an unknown username', async () => {
    expectProblem(await admin.patch('/api/users/ghost-user', { bio: 'x' }), 404, /User not found/)
  })

  it.each([
    ['an unknown seniority', { seniority: 'principal' }, 'seniority'],
    ['a seniority in the wrong case', { seniority: 'Junior' }, 'seniority'],
    ['a bio that is not text', { bio: 12 }, 'bio'],
    ['interests that are not a list', { interests: 'Go' }, 'interests'],
    ['an empty interest', { interests: ['  '] }, 'interests.0'],
    ['an unknown field', { isAdmin: true }, ''],
    ['lookingForMentor that is not a boolean', { lookingForMentor: 'yes' }, 'lookingForMentor'],
    ['an unknown preferred location', { preferredLocation: 'mars' }, 'preferredLocation'],
    ['the derived hasMentor', { hasMentor: true }, ''],
    ['the derived answersWithinDays', { answersWithinDays: 1 }, ''],
  ])('refuses %s with 400', async (_name, body, path) => {
    const name = unique('invalid')
    const owner = await server.signIn(name)
    const res = await owner.patch(`/api/users/${name}`, body)
    expectProblem(res, 400)
    expect(res.body.errors).toContainEqual(expect.objectContaining({ path }))
    expect((await owner.get('/api/user')).body.isAdmin).toBe(false)
  })

  it('drops duplicate interests ignoring case and adds new ones to /api/interests', async () => {
    const name = unique('curious')
    const owner = await server.signIn(name)
    const tag = unique('Quantum')

    const res = await owner.patch(`/api/users/${name}`, {
      interests: [tag, tag.toLowerCase(), ` ${tag.toUpperCase()} `, 'Chess', 'chess'],
    })

    expect(res.status).toBe(200)
    expect(res.body.interests).toEqual([tag, 'Chess'])
    const interests = await owner.get('/api/interests')
    expect(interests.status).toBe(200)
    expect(interests.body).toContain(tag)
    expect(interests.body).toContain('Chess')
    expect(
      interests.body.filter((i: string) => i.toLowerCase() === tag.toLowerCase()),
    ).toHaveLength(1)
  })
})

describe('Matching fields of a profile', () => {
  it('sets and clears lookingForMentor and preferredLocation, keeping them when left out', async () => {
    const name = unique('seeker')
    const owner = await server.signIn(name)

    const set = await owner.patch(`/api/users/${name}`, {
      lookingForMentor: true,
      preferredLocation: 'in-person',
    })
    expect(set.status, set.text).toBe(200)
    expect(set.body).toMatchObject({ lookingForMentor: true, preferredLocation: 'in-person' })

    const kept = await owner.patch(`/api/users/${name}`, { bio: 'Still looking' })
    expect(kept.body).toMatchObject({ lookingForMentor: true, preferredLocation: 'in-person' })

    const cleared = await owner.patch(`/api/users/${name}`, {
      lookingForMentor: false,
      preferredLocation: null,
    })
    expect(cleared.body).toMatchObject({ lookingForMentor: false, preferredLocation: null })
    expect((await owner.get('/api/user')).body).toMatchObject({
      lookingForMentor: false,
      preferredLocation: null,
    })
  })

  it('makes hasMentor true once one of the mentee’s applications is accepted', async () => {
    const mentor = await server.signIn(unique('derived-mentor'))
    const mentee = await server.signIn(unique('derived-mentee'))
    const topic = await createTopic(mentor)
    expect(
      (await admin.post(`/api/admin/topics/${topic.id}/review`, { status: 'approved' })).status,
    ).toBe(200)
    const applied = await mentee.post(`/api/topics/${topic.id}/apply`)
    expect((await mentee.get('/api/user')).body.hasMentor).toBe(false)

    const accepted = await mentor.patch(`/api/applications/${applied.body.id}`, {
      status: 'accepted',
    })
    expect(accepted.status, accepted.text).toBe(200)

    expect((await mentee.get('/api/user')).body.hasMentor).toBe(true)
    expect((await mentor.get('/api/user')).body.hasMentor).toBe(false)
  })

  it('gives a mentor answersWithinDays from the median of their last decisions, from the third on', async () => {
    const mentor = await server.signIn(unique('quick-mentor'))
    const decide = async (hoursAgo: number, status: 'accepted' | 'rejected') => {
      const topic = await createTopic(mentor)
      await admin.post(`/api/admin/topics/${topic.id}/review`, { status: 'approved' })
      const mentee = await server.signIn(unique('waiting-mentee'))
      const applied = await mentee.post(`/api/topics/${topic.id}/apply`)
      expect(applied.status).toBe(201)
      await server.sql`
        UPDATE applications SET created_at = now() - make_interval(hours => ${hoursAgo})
        WHERE id = ${applied.body.id}`
      const body = status === 'accepted' ? { status } : { status, rejectionReason: 'Full' }
      const res = await mentor.patch(`/api/applications/${applied.body.id}`, body)
      expect(res.status, res.text).toBe(200)
    }
    const days = async () => (await mentor.get('/api/user')).body.answersWithinDays

    await decide(30, 'accepted')
    await decide(50, 'rejected')
    expect(await days()).toBeNull()
    await decide(100, 'rejected')
    // Median of 30, 50 and 100 hours: 50 hours, 3 days.
    expect(await days()).toBe(3)
    await decide(200, 'rejected')
    await decide(300, 'rejected')
    // Median of 30, 50, 100, 200, 300: 100 hours, 5 days.
    expect(await days()).toBe(5)
  })
})

describe('POST /api/admin/users/{id}/toggle-admin', () => {
  async function proposedTopic(mentor: Client) {
    return (await createTopic(mentor, { subject: unique('Review me'), maxMentees: 1 })).id
  }

  it('flips another user to admin and back, taking effect on their next request', async () => {
    const target = await server.signIn(unique('promoted'))
    const mentor = await server.signIn(unique('proposer'))
    const first = await proposedTopic(mentor)
    const second = await proposedTopic(mentor)
    const id = target.user?.id ?? ''
    // Reviewing is for administrators only.
    expectProblem(
      await target.post(`/api/admin/topics/${first}/review`, { status: 'approved' }),
      403,
    )

    const promoted = await admin.post(`/api/admin/users/${id}/toggle-admin`)
    expect(promoted.status).toBe(200)
    expect(promoted.body).toMatchObject({ id, isAdmin: true })
    expect((await target.get('/api/user')).body.isAdmin).toBe(true)
    const reviewed = await target.post(`/api/admin/topics/${first}/review`, { status: 'approved' })
    expect(reviewed.status).toBe(200)

    const demoted = await admin.post(`/api/admin/users/${id}/toggle-admin`)
    expect(demoted.status).toBe(200)
    expect(demoted.body.isAdmin).toBe(false)
    expectProblem(
      await target.post(`/api/admin/topics/${second}/review`, { status: 'approved' }),
      403,
    )
    expect((await mentor.get(`/api/topics/${second}`)).body.status).toBe('proposed')
  })

  it('refuses a non-admin with 403', async () => {
    const plain = await server.signIn(unique('plain'))
    const target = await server.signIn(unique('target'))
    expectProblem(
      await plain.post(`/api/admin/users/${target.user?.id}/toggle-admin`),
      403,
      /administrators/,
    )
    expect((await target.get('/api/user')).body.isAdmin).toBe(false)
    expectProblem(
      await server.anonymous().post(`/api/admin/users/${target.user?.id}/toggle-admin`),
      401,
    )
  })

  it('refuses an administrator changing their own status with 403', async () => {
    expectProblem(await admin.post(`/api/admin/users/${admin.user?.id}/toggle-admin`), 403, /own/)
    expect((await admin.get('/api/user')).body.isAdmin).toBe(true)
  })

  it('answers 404 for an unknown or malformed user id', async () => {
    expectProblem(
      await admin.post('/api/admin/users/00000000-0000-4000-8000-000000000000/toggle-admin'),
      404,
      /User not found/,
    )
    expectProblem(await admin.post('/api/admin/users/users-admin/toggle-admin'), 404)
  })
})
