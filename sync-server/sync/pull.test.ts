import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_PREFERENCES } from '../../shared/preferences.ts'
import { SYNC_KEY, SYNC_TABLES } from '../../shared/sync.ts'
import {
  approvedTopic,
  createTopic,
  expectProblem,
  signInAdmin,
  topicBody,
  unique,
} from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'
import { encodeCursor } from './cursor.ts'
import { REMOVAL_RETENTION_DAYS } from './pull.ts'
import {
  applyPage,
  emptyReplica,
  holdTransaction,
  pullOnce,
  pullToEnd,
  type Replica,
  rowsMoved,
  settled,
  withoutVersion,
} from './testing.ts'

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'pull-admin')
})
afterAll(() => server?.stop())

/** Pulls to the end once every write made so far is below the watermark. */
async function pullAll(client: Client, replica: Replica, limit?: number) {
  await settled(server.sql)
  return pullToEnd(client, replica, limit)
}

/** A replica of `client` synced to the end, in pages of `limit`. */
async function synced(client: Client, limit?: number): Promise<Replica> {
  const replica = emptyReplica()
  await pullAll(client, replica, limit)
  return replica
}

/** A mentor with a proposed, a rejected and an approved topic, a mentee applied to the last. */
async function programme() {
  const mentor = await server.signIn(unique('pull-mentor'))
  const mentee = await server.signIn(unique('pull-mentee'))
  const proposed = await createTopic(mentor)
  const rejected = await createTopic(mentor)
  const review = await admin.post(`/api/admin/topics/${rejected.id}/review`, {
    status: 'rejected',
    rejectionReason: 'Too vague',
  })
  expect(review.status).toBe(200)
  const approved = await approvedTopic(admin, mentor, { interests: [unique('Interest')] })
  expect((await mentee.post(`/api/topics/${approved.id}/apply`)).status).toBe(201)
  // Matching: the mentee is looking, is invited to another topic and marks it "Not interested".
  const looking = await mentee.patch(`/api/users/${mentee.user?.username}`, {
    lookingForMentor: true,
  })
  expect(looking.status).toBe(200)
  const invitedTo = await approvedTopic(admin, mentor)
  const invitation = await mentor.post(`/api/topics/${invitedTo.id}/invitations`, {
    menteeId: mentee.user?.id,
  })
  expect(invitation.status, invitation.text).toBe(201)
  expect((await mentee.post(`/api/topics/${invitedTo.id}/dismissal`)).status).toBe(200)
  return {
    mentor,
    mentee,
    proposed,
    rejected,
    approved,
    invitedTo,
    invitation: invitation.body as { id: string },
  }
}

/** A concluded topic with feedback from its mentor and its accepted mentee. */
async function concludedWithFeedback() {
  const mentor = await server.signIn(unique('fb-mentor'))
  const mentee = await server.signIn(unique('fb-mentee'))
  const topic = await approvedTopic(admin, mentor)
  const application = await mentee.post(`/api/topics/${topic.id}/apply`)
  await mentor.patch(`/api/applications/${application.body.id}`, { status: 'accepted' })
  await mentor.post(`/api/topics/${topic.id}/start`)
  await mentor.post(`/api/topics/${topic.id}/conclude`, { mentorFeedback: 'Went well' })
  for (const author of [mentor, mentee]) {
    const res = await author.post(`/api/topics/${topic.id}/feedback`, {
      feedback: 'Good',
      rating: 4,
    })
    expect(res.status).toBe(201)
  }
  return { mentor, mentee, topic }
}

/** Everything `client` may read through the REST API, keyed as a replica is. */
async function restView(client: Client) {
  const byId = (rows: { id: string }[]) => Object.fromEntries(rows.map((r) => [r.id, r]))
  const topics = (await client.get('/api/topics')).body as { id: string; mentorId: string }[]
  const applications = [...(await client.get('/api/my-applications')).body]
  const feedback = []
  for (const topic of topics) {
    const list = await client.get(`/api/topics/${topic.id}/applications`)
    if (list.status === 200) applications.push(...list.body)
    feedback.push(...(await client.get(`/api/topics/${topic.id}/feedback`)).body)
  }
  return {
    topics: byId(topics),
    applications: byId(applications),
    feedback: byId(feedback),
    notifications: byId((await client.get('/api/notifications')).body),
    users: byId((await client.get('/api/users')).body),
    interests: Object.fromEntries(
      ((await client.get('/api/interests')).body as string[]).map((name) => [name, { name }]),
    ),
    dismissals: Object.fromEntries(
      ((await client.get('/api/dismissals')).body as { topicId: string }[]).map((d) => [
        d.topicId,
        d,
      ]),
    ),
    invitations: byId((await client.get('/api/invitations')).body),
    preferences: (await client.get('/api/user/notification-preferences')).body,
    // Administrators read the settings over REST; every user receives them by sync.
    settings: (await admin.get('/api/admin/settings')).body,
  }
}

/** The replica without versions, comparable with restView. */
function replicaView(replica: Replica) {
  const tables = Object.fromEntries(
    SYNC_TABLES.map((table) => [
      table,
      Object.fromEntries(
        Object.entries(replica.tables[table]).map(([key, row]) => [key, withoutVersion(row)]),
      ),
    ]),
  )
  return { ...tables, preferences: replica.preferences, settings: replica.settings }
}

describe('GET /api/sync/pull: a first sync', () => {
  it('sends exactly what the REST reads answer the user, in their shapes, across pages', async () => {
    const { mentor, mentee } = await programme()
    const { mentee: participant } = await concludedWithFeedback()
    for (const client of [mentee, mentor, participant, admin]) {
      const replica = emptyReplica()
      const pages = await pullAll(client, replica, 3)
      expect(pages.length).toBeGreaterThan(3)
      // No row twice: a first sync sends each row once.
      expect(rowsMoved(pages)).toBe(
        SYNC_TABLES.reduce((n, t) => n + Object.keys(replica.tables[t]).length, 0),
      )
      expect(pages.every((p) => !p.reset)).toBe(true)
      expect(replicaView(replica)).toEqual(await restView(client))
    }
  })

  it('never sends proposed or rejected topics of others, nor anyone else’s applications', async () => {
    const { mentor, mentee, proposed, rejected, approved } = await programme()
    const stranger = await server.signIn(unique('pull-stranger'))
    const theirs = await synced(stranger, 500)
    expect(theirs.tables.topics[approved.id]).toBeDefined()
    expect(theirs.tables.topics[proposed.id]).toBeUndefined()
    expect(theirs.tables.topics[rejected.id]).toBeUndefined()
    expect(Object.keys(theirs.tables.applications)).toEqual([])
    const mentors = await synced(mentor)
    expect(mentors.tables.topics[proposed.id]?.status).toBe('proposed')
    expect(mentors.tables.topics[rejected.id]?.rejectionReason).toBe('Too vague')
    const mentees = await synced(mentee)
    expect(Object.values(mentees.tables.applications).map((a) => a.topicId)).toEqual([approved.id])
    const admins = await synced(admin)
    expect(admins.tables.topics[proposed.id]).toBeDefined()
  })

  it('sends only the user’s own notifications and preferences', async () => {
    const { mentor, mentee } = await programme()
    const chosen = {
      emailNotifications: {
        newApplications: false,
        topicStatusUpdates: true,
        applicationStatusUpdates: false,
        newTopicsForReview: false,
      },
    }
    expect((await mentor.patch('/api/user/notification-preferences', chosen)).status).toBe(200)
    const mentors = await synced(mentor)
    const mentees = await synced(mentee)
    expect(mentors.preferences).toEqual({ ...DEFAULT_PREFERENCES, ...chosen })
    expect(mentees.preferences?.emailNotifications.newApplications).toBe(true)
    const mentorNotes = Object.keys(mentors.tables.notifications)
    expect(mentorNotes.length).toBeGreaterThan(0)
    for (const id of mentorNotes) expect(mentees.tables.notifications[id]).toBeUndefined()
    const adminNotes = await synced(admin)
    for (const id of mentorNotes) expect(adminNotes.tables.notifications[id]).toBeUndefined()
  })
})

describe('GET /api/sync/pull: deltas', () => {
  it('moves exactly one row after one change', async () => {
    const reader = await server.signIn(unique('delta-reader'))
    const other = await server.signIn(unique('delta-other'))
    const mentor = await server.signIn(unique('delta-mentor'))
    const proposed = await createTopic(mentor)
    const replica = await synced(reader)

    expect(rowsMoved(await pullAll(reader, replica))).toBe(0)

    expect((await other.patch(`/api/users/${other.user?.username}`, { bio: 'Hello' })).status).toBe(
      200,
    )
    const pages = await pullAll(reader, replica)
    expect(pages).toHaveLength(1)
    expect(rowsMoved(pages)).toBe(1)
    expect(pages[0]?.changes.users.map((u) => [u.id, u.bio])).toEqual([[other.user?.id, 'Hello']])
    expect(pages[0]?.changes.preferences).toBeNull()

    const review = await admin.post(`/api/admin/topics/${proposed.id}/review`, {
      status: 'approved',
    })
    expect(review.status).toBe(200)
    const next = await pullAll(reader, replica)
    expect(rowsMoved(next)).toBe(1)
    expect(next[0]?.changes.topics.map((t) => [t.id, t.status])).toEqual([
      [proposed.id, 'approved'],
    ])
  })

  it('pages a delta over several tables: each row once, the same view as the REST reads', async () => {
    const { mentor, mentee } = await programme()
    const replica = await synced(mentor)
    // A follow-up pull reads every table at once (sync/pull.ts); one larger than a page is cut
    // in the order a stage-by-stage pass takes them.
    const topics = [await approvedTopic(admin, mentor), await approvedTopic(admin, mentor)]
    for (const topic of topics) {
      expect((await mentee.post(`/api/topics/${topic.id}/apply`)).status).toBe(201)
    }
    const bio = await mentor.patch(`/api/users/${mentor.user?.username}`, { bio: 'Follow-up' })
    expect(bio.status).toBe(200)
    const pages = await pullAll(mentor, replica, 2)
    expect(pages.length).toBeGreaterThan(2)
    const moved = pages.flatMap((page) =>
      SYNC_TABLES.flatMap((table) =>
        (page.changes[table] as Record<string, unknown>[]).map(
          (row) => `${table} ${row[SYNC_KEY[table]]}`,
        ),
      ),
    )
    expect(new Set(moved).size).toBe(moved.length)
    for (const table of ['topics', 'applications', 'notifications', 'users'] as const) {
      expect(
        moved.some((m) => m.startsWith(`${table} `)),
        table,
      ).toBe(true)
    }
    expect(pages.at(-1)?.changes.preferences).toBeNull()
    expect(replicaView(replica)).toEqual(await restView(mentor))
  })

  it('carries a renamed mentor into every copy of their name', async () => {
    const { mentor, mentee, approved } = await programme()
    const replica = await synced(mentee)
    await server.sql`UPDATE users SET full_name = 'Renamed Mentor' WHERE id = ${mentor.user?.id ?? ''}`
    const pages = await pullAll(mentee, replica)
    expect(pages[0]?.changes.users.map((u) => u.full_name)).toEqual(['Renamed Mentor'])
    expect(replica.tables.topics[approved.id]?.mentor).toMatchObject({
      full_name: 'Renamed Mentor',
    })
    const application = Object.values(replica.tables.applications)[0]
    expect(application?.topic).toMatchObject({ mentor: { full_name: 'Renamed Mentor' } })
    expect(replicaView(replica)).toEqual(await restView(mentee))
  })

  it('removes a topic turned back to proposed from other devices, keeps it for its mentor', async () => {
    // The API never hides a public topic again (statusAfterEdit keeps approved
    // topics approved); an operator can, directly in the database.
    const { mentor, topic, mentee } = await concludedWithFeedback()
    const stranger = await server.signIn(unique('hidden-stranger'))
    const replicas = new Map<Client, Replica>()
    for (const client of [stranger, mentee, mentor, admin])
      replicas.set(client, await synced(client))
    const feedbackIds = Object.values(replicas.get(stranger)?.tables.feedback ?? {})
      .filter((f) => f.topicId === topic.id)
      .map((f) => f.id)
    expect(feedbackIds).toHaveLength(2)

    await server.sql`UPDATE topics SET status = 'proposed' WHERE id = ${topic.id}`
    for (const [client, replica] of replicas) {
      const pages = await pullAll(client, replica)
      const gone = pages.flatMap((p) => p.removed.topics)
      if (client === mentor || client === admin) {
        expect(gone).toEqual([])
        expect(replica.tables.topics[topic.id]?.status).toBe('proposed')
      } else {
        expect(gone).toEqual([topic.id])
        expect(pages.flatMap((p) => p.removed.feedback).sort()).toEqual([...feedbackIds].sort())
        expect(replica.tables.topics[topic.id]).toBeUndefined()
      }
      expect(replicaView(replica)).toEqual(await restView(client))
    }

    // Back to public: it returns, feedback and all.
    await server.sql`UPDATE topics SET status = 'concluded' WHERE id = ${topic.id}`
    const strangers = replicas.get(stranger) as Replica
    await pullAll(stranger, strangers)
    expect(strangers.tables.topics[topic.id]?.status).toBe('concluded')
    expect(replicaView(strangers)).toEqual(await restView(stranger))
  })

  it('removes hard-deleted rows, each only for users who had them', async () => {
    const { mentor, mentee } = await programme()
    const leaver = await server.signIn(unique('pull-leaver'))
    const replicas = [await synced(mentor), await synced(mentee)]
    const [note] = Object.keys(replicas[0]?.tables.notifications ?? {})
    expect(note).toBeDefined()
    await server.sql`DELETE FROM notifications WHERE id = ${note ?? ''}`
    await server.sql`DELETE FROM users WHERE id = ${leaver.user?.id ?? ''}`
    await server.sql`DELETE FROM notification_preferences WHERE user_id = ${mentee.user?.id ?? ''}`
    const mentorPages = await pullAll(mentor, replicas[0] as Replica)
    const menteePages = await pullAll(mentee, replicas[1] as Replica)
    expect(mentorPages.flatMap((p) => p.removed.notifications)).toEqual([note])
    expect(menteePages.flatMap((p) => p.removed.notifications)).toEqual([])
    for (const pages of [mentorPages, menteePages]) {
      expect(pages.flatMap((p) => p.removed.users)).toEqual([leaver.user?.id])
    }
    // Preferences without a row read as the defaults, as GET answers them.
    expect(menteePages.at(-1)?.changes.preferences?.emailNotifications.newApplications).toBe(true)
    expect(mentorPages.at(-1)?.changes.preferences).toBeNull()
  })

  it('skips no row that changes between the pages of a pass', async () => {
    const mentor = await server.signIn(unique('paging-mentor'))
    const topics = []
    for (let i = 0; i < 6; i++) topics.push(await approvedTopic(admin, mentor))
    const reader = await server.signIn(unique('paging-reader'))
    const replica = emptyReplica()
    await settled(server.sql)
    let page = await pullOnce(reader, undefined, 2)
    const seen = page.changes.topics.map((t) => t.id)
    // Change every topic while the pass is under way: sent ones and ones still to come.
    for (const topic of topics) {
      const res = await mentor.patch(
        `/api/topics/${topic.id}`,
        topicBody({ subject: `${topic.id} v2` }),
      )
      expect(res.status).toBe(200)
    }
    applyPage(replica, page)
    while (page.hasMore) {
      page = await pullOnce(reader, replica.cursor, 2)
      applyPage(replica, page)
    }
    await pullAll(reader, replica, 2)
    expect(seen.length).toBeGreaterThan(0)
    for (const topic of topics) {
      expect(replica.tables.topics[topic.id]?.subject).toBe(`${topic.id} v2`)
    }
    expect(replicaView(replica)).toEqual(await restView(reader))
  })
})

describe('GET /api/sync/pull: matching', () => {
  it('sends invitations to their mentee and mentor only, and their decline to both', async () => {
    const { mentor, mentee, invitation } = await programme()
    const stranger = await server.signIn(unique('pull-stranger'))
    const replicas = [await synced(mentor), await synced(mentee), await synced(stranger)]
    expect(replicas[0]?.tables.invitations[invitation.id]?.status).toBe('open')
    expect(replicas[1]?.tables.invitations[invitation.id]?.status).toBe('open')
    expect(replicas[2]?.tables.invitations).toEqual({})

    expect((await mentee.post(`/api/invitations/${invitation.id}/decline`)).status).toBe(200)
    const clients = [mentor, mentee, stranger]
    for (const [i, client] of clients.entries()) {
      const pages = await pullAll(client, replicas[i] as Replica)
      const sent = pages.flatMap((p) => p.changes.invitations).map((r) => [r.id, r.status])
      expect(sent).toEqual(i < 2 ? [[invitation.id, 'declined']] : [])
      expect(replicaView(replicas[i] as Replica)).toEqual(await restView(client))
    }
  })

  it('sends a "Not interested" mark to its owner only, and its removal when deleted', async () => {
    const { mentor, mentee, invitedTo } = await programme()
    const mentees = await synced(mentee)
    const mentors = await synced(mentor)
    expect(mentees.tables.dismissals[invitedTo.id]).toMatchObject({ dismissed: true })
    expect(mentors.tables.dismissals).toEqual({})

    await server.sql`DELETE FROM topic_dismissals WHERE user_id = ${mentee.user?.id ?? ''}`
    const menteePages = await pullAll(mentee, mentees)
    const mentorPages = await pullAll(mentor, mentors)
    expect(menteePages.flatMap((p) => p.removed.dismissals)).toEqual([invitedTo.id])
    expect(mentorPages.flatMap((p) => p.removed.dismissals)).toEqual([])
    expect(mentees.tables.dismissals).toEqual({})
  })

  it('removes a deleted invitation for its mentee and mentor', async () => {
    const { mentor, mentee, invitation } = await programme()
    const replicas = [await synced(mentor), await synced(mentee)]
    await server.sql`DELETE FROM invitations WHERE id = ${invitation.id}`
    for (const [i, client] of [mentor, mentee].entries()) {
      const pages = await pullAll(client, replicas[i] as Replica)
      expect(pages.flatMap((p) => p.removed.invitations)).toEqual([invitation.id])
    }
  })

  it('sends the programme settings on a first sync, then only when they change, to everyone', async () => {
    const member = await server.signIn(unique('pull-member'))
    const replica = await synced(member)
    const before = (await admin.get('/api/admin/settings')).body
    expect(replica.settings).toEqual(before)

    const quiet = await pullAll(member, replica)
    expect(quiet.at(-1)?.changes.settings).toBeNull()

    const weights = { ...before.matchWeights, capacity: before.matchWeights.capacity === 3 ? 4 : 3 }
    const changed = await admin.patch('/api/admin/settings', { matchWeights: weights })
    expect(changed.status, changed.text).toBe(200)
    const pages = await pullAll(member, replica)
    expect(pages.at(-1)?.changes.settings).toEqual(changed.body)
    expect(replica.settings).toEqual(changed.body)
    expect(rowsMoved(pages)).toBe(0)

    // Deleted by an operator: back to the defaults, which every device hears of.
    await server.sql`DELETE FROM programme_settings`
    await pullAll(member, replica)
    expect(replica.settings).toEqual((await admin.get('/api/admin/settings')).body)
    expect(replica.settings?.updatedAt).toBeNull()
  })
})

describe('GET /api/sync/pull: cursors', () => {
  it('starts again (reset) when the user is made an administrator, and when that is revoked', async () => {
    const { proposed } = await programme()
    const promoted = await server.signIn(unique('promoted'))
    const replica = await synced(promoted)
    expect(replica.tables.topics[proposed.id]).toBeUndefined()

    const grant = await admin.post(`/api/admin/users/${promoted.user?.id}/toggle-admin`)
    expect(grant.body.isAdmin).toBe(true)
    const pages = await pullAll(promoted, replica)
    expect(pages[0]?.reset).toBe(true)
    expect(pages.slice(1).every((p) => !p.reset)).toBe(true)
    expect(replica.tables.topics[proposed.id]).toBeDefined()
    expect(replicaView(replica)).toEqual(await restView(promoted))

    await admin.post(`/api/admin/users/${promoted.user?.id}/toggle-admin`)
    const after = await pullAll(promoted, replica)
    expect(after[0]?.reset).toBe(true)
    expect(replica.tables.topics[proposed.id]).toBeUndefined()
    expect(replicaView(replica)).toEqual(await restView(promoted))
  })

  it('starts again (reset) from a cursor older than the removals are kept', async () => {
    const me = await server.signIn(unique('sleeper'))
    const replica = await synced(me)
    const decoded = JSON.parse(Buffer.from(replica.cursor ?? '', 'base64url').toString())
    const old = encodeCursor({ ...decoded, t: Date.now() - REMOVAL_RETENTION_DAYS * 86_400_000 })
    const page = await pullOnce(me, old)
    expect(page.reset).toBe(true)
    expect(page.changes.users.length).toBeGreaterThan(0)
    expect((await pullOnce(me, replica.cursor)).reset).toBe(false)
  })

  it('refuses a malformed, forged or foreign cursor with 400', async () => {
    const me = await server.signIn(unique('cursor-owner'))
    const other = await server.signIn(unique('cursor-other'))
    const { cursor } = await pullOnce(me, undefined)
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString())
    const bad = [
      'not a cursor!',
      'e30',
      Buffer.from('[1,2]').toString('base64url'),
      encodeCursor({ ...decoded, v: 2 }),
      encodeCursor({ ...decoded, w: '99999999999999' }),
      encodeCursor({ ...decoded, x: '1', w: '5' }),
    ]
    for (const text of bad) {
      const res = await me.get(`/api/sync/pull?cursor=${encodeURIComponent(text)}`)
      expectProblem(res, 400, /cursor/)
    }
    expectProblem(await other.get(`/api/sync/pull?cursor=${cursor}`), 400, /another user/)
    for (const limit of ['0', '1001', 'ten', '1.5']) {
      expectProblem(await me.get(`/api/sync/pull?limit=${limit}`), 400, /limit/)
    }
    expectProblem(await me.get('/api/sync/pull?since=1'), 400)
  })

  it('answers 401 without a session', async () => {
    expectProblem(await server.anonymous().get('/api/sync/pull'), 401)
  })
})

describe('GET /api/sync/pull: transactions that commit out of order', () => {
  it.skipIf(!process.env.DATABASE_URL)(
    'never skips the row of a transaction that commits after a later one (PostgreSQL only: PGlite runs one transaction at a time)',
    async () => {
      const mentor = await server.signIn(unique('order-mentor'))
      const first = await approvedTopic(admin, mentor)
      const second = await approvedTopic(admin, mentor)
      const reader = await server.signIn(unique('order-reader'))
      const replica = await synced(reader)

      // Transaction A takes its version first and stays open on a connection of its own.
      const a = await holdTransaction(server.databaseUrl as string, async (tx) => {
        const [row] = await tx<{ version: string }[]>`
          UPDATE topics SET subject = 'Written by A' WHERE id = ${first.id} RETURNING version`
        return Number(row?.version)
      })
      const versionA = a.value
      try {
        expect(versionA).toBeGreaterThan(0)
        // Transaction B starts later, takes a later version, and commits first.
        const b = await mentor.patch(
          `/api/topics/${second.id}`,
          topicBody({ subject: 'Written by B' }),
        )
        expect(b.status).toBe(200)
        const [rowB] = await server.sql<{ version: string }[]>`
          SELECT version FROM topics WHERE id = ${second.id}`
        expect(Number(rowB?.version)).toBeGreaterThan(versionA)

        // While A is open the pull may send B's row or nothing, never A's, and a cursor.
        const during = await pullToEnd(reader, replica) // not settled: A is still open
        const sent = during.flatMap((p) => p.changes.topics.map((t) => t.subject))
        expect(sent.every((s) => s === 'Written by B')).toBe(true)
        expect(replica.cursor).toEqual(expect.any(String))
      } finally {
        await a.commit()
      }

      await pullAll(reader, replica)
      expect(replica.tables.topics[first.id]?.subject).toBe('Written by A')
      expect(replica.tables.topics[second.id]?.subject).toBe('Written by B')
      expect(replicaView(replica)).toEqual(await restView(reader))
    },
  )
})
