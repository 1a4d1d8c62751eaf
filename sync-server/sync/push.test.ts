import { randomUUID } from 'node:crypto'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  PUSH_MAX_MUTATIONS,
  PUSH_OTHER_USER_PROBLEM,
  type PushMutation,
  pushResponseSchema,
} from '../../shared/sync.ts'
import { expectConsole } from '../../test-support/console-guard.ts'
import {
  approvedTopic,
  expectProblem,
  signInAdmin,
  topicBody,
  topicCount,
  unique,
} from '../test/api.ts'
import { Client, startTestServer, type TestServer } from '../test/server.ts'

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'push-admin')
})
afterAll(() => server?.stop())

async function push(client: Client, mutations: PushMutation[], clientId = 'device-1') {
  const res = await client.post('/api/sync/push', { clientId, mutations })
  expect(res.status, res.text).toBe(200)
  return pushResponseSchema.parse(res.body).results
}

/** A mutation creating a topic with a client-chosen id. */
function createTopicMutation(subject = unique('Pushed')): PushMutation {
  return {
    id: randomUUID(),
    method: 'POST',
    path: '/api/topics',
    body: topicBody({ id: randomUUID(), subject }),
  }
}

const topicIdOf = (m: PushMutation) => (m.body as { id: string }).id
const subjectOf = (m: PushMutation | undefined) =>
  (m?.body as { subject: string } | undefined)?.subject ?? ''

describe('POST /api/sync/push', () => {
  it('applies a batch in order, one result per mutation with the REST answer', async () => {
    const me = await server.signIn(unique('pusher'))
    const create = createTopicMutation()
    const mutations: PushMutation[] = [
      create,
      {
        id: randomUUID(),
        method: 'PATCH',
        path: `/api/topics/${topicIdOf(create)}`,
        body: topicBody({ subject: 'Edited offline', maxMentees: 1 }),
      },
      {
        id: randomUUID(),
        method: 'PATCH',
        path: `/api/users/${me.user?.username}`,
        body: { bio: 'Written on a train' },
      },
    ]
    const results = await push(me, mutations)
    expect(results.map((r) => [r.id, r.status, r.replayed])).toEqual(
      mutations.map((m, i) => [m.id, i === 0 ? 201 : 200, false]),
    )
    expect(results[1]?.body).toEqual((await me.get(`/api/topics/${topicIdOf(create)}`)).body)
    expect(results[1]?.body).toMatchObject({ subject: 'Edited offline', maxMentees: 1 })
    expect(results[2]?.body).toMatchObject({ bio: 'Written on a train' })
  })

  it("answers with the security headers (the replayed mutations' own answers never leave)", async () => {
    const me = await server.signIn(unique('headers'))
    const res = await me.post('/api/sync/push', {
      clientId: 'device-1',
      mutations: [createTopicMutation()],
    })
    expect(res.status, res.text).toBe(200)
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/)
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(pushResponseSchema.parse(res.body).results.map((r) => r.status)).toEqual([201])
  })

  it('applies a batch pushed twice once, answering the stored results', async () => {
    const me = await server.signIn(unique('twice'))
    const create = createTopicMutation()
    const mutations = [create, createTopicMutation()]
    const notesBefore = (await admin.get('/api/notifications')).body.length
    const first = await push(me, mutations)
    const second = await push(me, mutations)
    expect(second.map((r) => r.status)).toEqual([201, 201])
    expect(second.every((r) => r.replayed)).toBe(true)
    expect(second.map((r) => r.body)).toEqual(first.map((r) => r.body))
    expect(await topicCount(server, subjectOf(create))).toBe(1)
    // One "new topic for review" per topic, not per push.
    expect((await admin.get('/api/notifications')).body.length).toBe(notesBefore + 2)
  })

  it('applies once when the answer was lost and the client pushes its grown queue again', async () => {
    const me = await server.signIn(unique('lost'))
    const a = createTopicMutation()
    const b = createTopicMutation()
    await push(me, [a]) // the answer never reached the client
    const results = await push(me, [a, b])
    expect(results.map((r) => [r.status, r.replayed])).toEqual([
      [201, true],
      [201, false],
    ])
    for (const m of [a, b]) {
      expect(await topicCount(server, subjectOf(m))).toBe(1)
    }
  })

  it('applies a full batch in order across its transactions, a refusal rolling back only itself', async () => {
    const me = await server.signIn(unique('full-batch'))
    const mutations: PushMutation[] = []
    for (let i = 0; mutations.length < PUSH_MAX_MUTATIONS - 2; i++) {
      const create = createTopicMutation(unique(`Batch ${i}`))
      mutations.push(create, {
        id: randomUUID(),
        method: 'PATCH',
        path: `/api/topics/${topicIdOf(create)}`,
        body: topicBody({ subject: `${subjectOf(create)} edited` }),
      })
    }
    // In the middle (the second transaction): an edit of a topic that does not exist.
    const missing = {
      id: randomUUID(),
      method: 'PATCH',
      path: `/api/topics/${randomUUID()}`,
      body: topicBody(),
    }
    mutations.splice(61, 0, missing)
    const results = await push(me, mutations)
    expect(results).toHaveLength(99)
    expect(results.map((r) => r.id)).toEqual(mutations.map((m) => m.id))
    expect(results.filter((r) => r.status === 404).map((r) => r.id)).toEqual([missing.id])
    expect(results.filter((r) => r.status !== 404).every((r) => r.status < 300)).toBe(true)
    const [row] = await server.sql<{ n: number; edited: number }[]>`
      SELECT count(*)::int AS n, count(*) FILTER (WHERE subject LIKE '% edited')::int AS edited
      FROM topics WHERE mentor_id = ${me.user?.id ?? ''}`
    expect(row).toEqual({ n: 49, edited: 49 })
    // Pushed again: every answer is the stored one, the refusal included, and nothing changes.
    const again = await push(me, mutations)
    expect(again.every((r) => r.replayed)).toBe(true)
    expect(again.map((r) => r.status)).toEqual(results.map((r) => r.status))
  })

  it('answers a refused mutation with its problem and goes on with the batch', async () => {
    const mentor = await server.signIn(unique('full-mentor'))
    const first = await server.signIn(unique('first-mentee'))
    const late = await server.signIn(unique('late-mentee'))
    const topic = await approvedTopic(admin, mentor, { maxMentees: 1 })
    const applied = await first.post(`/api/topics/${topic.id}/apply`)
    await mentor.patch(`/api/applications/${applied.body.id}`, { status: 'accepted' })

    const mutations: PushMutation[] = [
      { id: randomUUID(), method: 'POST', path: `/api/topics/${topic.id}/apply` },
      {
        id: randomUUID(),
        method: 'POST',
        path: `/api/admin/topics/${topic.id}/review`,
        body: { status: 'approved' },
      },
      {
        id: randomUUID(),
        method: 'PATCH',
        path: `/api/users/${late.user?.username}`,
        body: { bio: 'Still here' },
      },
    ]
    const results = await push(late, mutations)
    expect(results.map((r) => r.status)).toEqual([409, 403, 200])
    expect(results[0]?.body).toMatchObject({ status: 409, detail: expect.stringMatching(/full/) })
    expect(results[1]?.body).toMatchObject({ status: 403 })
    // A refusal is final: pushing again answers the same problem and changes nothing.
    const again = await push(late, mutations)
    expect(again.map((r) => [r.status, r.replayed])).toEqual([
      [409, true],
      [403, true],
      [200, true],
    ])
  })

  it('refuses anything but a documented REST mutation, per mutation', async () => {
    const me = await server.signIn(unique('sneaky'))
    const ok = {
      id: randomUUID(),
      method: 'PATCH',
      path: `/api/users/${me.user?.username}`,
      body: { bio: 'ok' },
    }
    const refused: [PushMutation, number][] = [
      [{ id: randomUUID(), method: 'GET', path: '/api/topics' }, 404],
      [{ id: randomUUID(), method: 'DELETE', path: `/api/users/${me.user?.username}` }, 404],
      [
        {
          id: randomUUID(),
          method: 'POST',
          path: '/api/sync/push',
          body: { clientId: 'x', mutations: [ok] },
        },
        404,
      ],
      [
        {
          id: randomUUID(),
          method: 'POST',
          path: '/api/auth/dev-login',
          body: { userId: 'admin' },
        },
        404,
      ],
      [
        {
          id: randomUUID(),
          method: 'POST',
          path: '/api/topics?status=approved',
          body: topicBody(),
        },
        400,
      ],
      [{ id: randomUUID(), method: 'POST', path: '/api/topics/../topics', body: topicBody() }, 400],
      [{ id: randomUUID(), method: 'POST', path: '/api/%74opics', body: topicBody() }, 404],
      [
        { id: randomUUID(), method: 'POST', path: '//evil.example/api/topics', body: topicBody() },
        400,
      ],
      [
        {
          id: randomUUID(),
          method: 'POST',
          path: 'http://evil.example/api/topics',
          body: topicBody(),
        },
        400,
      ],
      [{ id: randomUUID(), method: 'PATCH', path: '/api/topics', body: topicBody() }, 404],
      // Declared online-only (replayable: false): never queued and replayed.
      [{ id: randomUUID(), method: 'POST', path: '/api/user/sessions/sign-out-others' }, 404],
      [
        {
          id: randomUUID(),
          method: 'POST',
          path: '/api/push/subscriptions',
          body: { endpoint: 'https://push.example.com/x', keys: { p256dh: 'a', auth: 'b' } },
        },
        404,
      ],
    ]
    const results = await push(me, [...refused.map(([m]) => m), ok])
    expect(results.map((r) => r.status)).toEqual([...refused.map(([, s]) => s), 200])
    for (const result of results.slice(0, -1)) {
      expect(result.body).toMatchObject({ type: 'about:blank', detail: expect.any(String) })
    }
    expect((await me.get('/api/user')).body.bio).toBe('ok')
  })

  it('answers 401 for the whole push without a session, and applies nothing', async () => {
    const mutation = createTopicMutation()
    const res = await server
      .anonymous()
      .post('/api/sync/push', { clientId: 'c', mutations: [mutation] })
    expectProblem(res, 401)
    expect(res.body.results).toBeUndefined()
    expect(await topicCount(server, subjectOf(mutation))).toBe(0)
  })

  it('refuses the whole push with 401 when the session is not the user whose queue it is', async () => {
    const alice = await server.signIn(unique('queue-owner'))
    const bob = await server.signIn(unique('other-session'))
    const create = createTopicMutation()
    const profile: PushMutation = {
      id: randomUUID(),
      method: 'PATCH',
      path: `/api/users/${bob.user?.username}`,
      body: { bio: 'Written in Alice’s queue' },
    }
    const res = await bob.post('/api/sync/push', {
      clientId: 'alices-laptop',
      userId: alice.user?.id,
      mutations: [create, profile],
    })
    expectProblem(res, 401, /another user/)
    expect(res.body).toMatchObject({ type: PUSH_OTHER_USER_PROBLEM, status: 401 })
    expect(res.body.results).toBeUndefined()
    // Nothing applied, and no key used up: the same mutations still apply for their owner.
    expect(await topicCount(server, subjectOf(create))).toBe(0)
    expect((await bob.get('/api/user')).body.bio).not.toBe('Written in Alice’s queue')
    const [row] = await server.sql<{ count: number }[]>`
      SELECT count(*)::int AS count FROM idempotency_keys WHERE key IN ${server.sql([create.id, profile.id])}`
    expect(row?.count).toBe(0)

    const own = await alice.post('/api/sync/push', {
      clientId: 'alices-laptop',
      userId: alice.user?.id,
      mutations: [create],
    })
    expect(own.status, own.text).toBe(200)
    expect(own.body.results.map((r: { status: number }) => r.status)).toEqual([201])
    expect(await topicCount(server, subjectOf(create))).toBe(1)
  })

  it('answers a malformed mutation with a 400 result, so it cannot wedge the queue behind it', async () => {
    const me = await server.signIn(unique('malformed'))
    const good = createTopicMutation()
    const res = await me.post('/api/sync/push', {
      clientId: 'c',
      mutations: [
        { id: 'no-path', method: 'POST' },
        { method: 'POST', path: '/api/topics' },
        null,
        { ...createTopicMutation(), sentAt: 'yesterday' },
        good,
      ],
    })
    expect(res.status, res.text).toBe(200)
    const results = pushResponseSchema.parse(res.body).results
    expect(results.map((r) => [r.id, r.status])).toEqual([
      ['no-path', 400],
      ['', 400],
      ['', 400],
      [expect.any(String), 400],
      [good.id, 201],
    ])
    expect(results[0]?.body).toMatchObject({ status: 400, detail: expect.stringMatching(/path/) })
    expect(await topicCount(server, subjectOf(good))).toBe(1)
  })

  it('refuses a push another site sends with 403, applying nothing', async () => {
    const me = await server.signIn(unique('csrf-pusher'))
    const mutation = createTopicMutation()
    const res = await me.post(
      '/api/sync/push',
      { clientId: 'c', mutations: [mutation] },
      { headers: { 'sec-fetch-site': 'cross-site' } },
    )
    expectProblem(res, 403)
    expect(await topicCount(server, subjectOf(mutation))).toBe(0)
  })

  it('validates the batch: shape, size, and a key reused for another request', async () => {
    const me = await server.signIn(unique('shape'))
    expectProblem(await me.post('/api/sync/push', { mutations: [] }), 400, /clientId/)
    expectProblem(await me.post('/api/sync/push', { clientId: 'c', mutations: {} }), 400)
    const tooMany = Array.from({ length: PUSH_MAX_MUTATIONS + 1 }, () => createTopicMutation())
    expectProblem(
      await me.post('/api/sync/push', { clientId: 'c', mutations: tooMany }),
      400,
      /at most/,
    )
    expect(await push(me, [])).toEqual([])

    const mutation = createTopicMutation()
    await push(me, [mutation])
    const reused = await push(me, [{ ...mutation, body: topicBody() }])
    expect(reused[0]?.status).toBe(422)
  })

  it('leaves nothing of a mutation pushed again, though its route runs before the key is checked', async () => {
    const me = await server.signIn(unique('again'))
    const create = createTopicMutation()
    const id = (create.body as { id: string }).id
    const edit: PushMutation = {
      id: randomUUID(),
      method: 'PATCH',
      path: `/api/topics/${id}`,
      body: topicBody({ subject: `${subjectOf(create)} offline` }),
    }
    const first = await push(me, [create, edit])
    expect(first.map((r) => [r.status, r.replayed])).toEqual([
      [201, false],
      [200, false],
    ])
    // Edited since, online: the same edit pushed again must not put its subject back.
    const online = `${subjectOf(create)} online`
    const res = await me.patch(`/api/topics/${id}`, topicBody({ subject: online }))
    expect(res.status, res.text).toBe(200)
    const again = await push(me, [edit, { ...edit, body: topicBody({ subject: 'Another body' }) }])
    expect(again.map((r) => [r.status, r.replayed])).toEqual([
      [200, true],
      [422, false],
    ])
    expect((again[0]?.body as { subject?: string } | undefined)?.subject).toBe(
      `${subjectOf(create)} offline`,
    )
    expect(((await me.get(`/api/topics/${id}`)).body as { subject: string }).subject).toBe(online)
  })

  it('takes bodies larger than the usual limit, each mutation still within it', async () => {
    const small = await startTestServer({ BODY_LIMIT_BYTES: '4096' })
    try {
      const me = await small.signIn('big-pusher')
      const mutations = Array.from({ length: 3 }, () => {
        const m = createTopicMutation()
        return { ...m, body: { ...(m.body as object), description: `<p>${'x'.repeat(3000)}</p>` } }
      })
      const oversized = createTopicMutation()
      oversized.body = { ...(oversized.body as object), description: 'y'.repeat(5000) }
      const res = await me.post('/api/sync/push', {
        clientId: 'c',
        mutations: [...mutations, oversized],
      })
      expect(res.status, res.text).toBe(200)
      expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([
        201, 201, 201, 413,
      ])
      const huge = 'z'.repeat(4 * 1024 * 1024)
      expectProblem(await me.post('/api/sync/push', { clientId: huge, mutations: [] }), 413)
    } finally {
      await small.stop()
    }
  })
})

describe('POST /api/sync/push: the server fails mid-batch', () => {
  it('stops at a 5xx; pushing the whole batch again applies every mutation exactly once', async () => {
    const me = await server.signIn(unique('crash'))
    const batch = [createTopicMutation(), createTopicMutation('Boom'), createTopicMutation()]
    // An unexpected database error for one mutation: the server answers 500.
    await server.sql.unsafe(`
      CREATE FUNCTION push_test_boom() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.subject = 'Boom' THEN RAISE EXCEPTION 'disk on fire'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER push_test_boom BEFORE INSERT ON topics FOR EACH ROW EXECUTE FUNCTION push_test_boom();`)
    let results: Awaited<ReturnType<typeof push>>
    expectConsole('error', /^Unhandled error on POST \/api\/topics: .*disk on fire/s)
    try {
      results = await push(me, batch)
      expect(vi.mocked(console.error)).toHaveBeenCalledWith(
        expect.stringMatching(/^Unhandled error on POST \/api\/topics/),
        expect.stringMatching(/disk on fire/),
      )
    } finally {
      await server.sql.unsafe(`
        DROP TRIGGER push_test_boom ON topics; DROP FUNCTION push_test_boom();`)
    }
    expect(results.map((r) => r.status)).toEqual([201, 500])
    expect(await topicCount(server, 'Boom')).toBe(0)

    const retried = await push(me, batch)
    expect(retried.map((r) => [r.status, r.replayed])).toEqual([
      [201, true],
      [201, false],
      [201, false],
    ])
    for (const m of batch) {
      expect(await topicCount(server, subjectOf(m))).toBe(1)
    }
  })

  it('rolls back only the mutation whose statement the database refused, and goes on', async () => {
    const me = await server.signIn(unique('db-refusal'))
    const refused = createTopicMutation('Refused by the database')
    const batch = [createTopicMutation(), refused, createTopicMutation()]
    // A refusal raised by the database itself (check_violation: 409), not by the route's code.
    await server.sql.unsafe(`
      CREATE FUNCTION push_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.subject = 'Refused by the database' THEN
        RAISE EXCEPTION 'no' USING ERRCODE = 'check_violation'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER push_test_refuse BEFORE INSERT ON topics FOR EACH ROW EXECUTE FUNCTION push_test_refuse();`)
    let results: Awaited<ReturnType<typeof push>>
    try {
      results = await push(me, batch)
    } finally {
      await server.sql.unsafe(`
        DROP TRIGGER push_test_refuse ON topics; DROP FUNCTION push_test_refuse();`)
    }
    expect(results.map((r) => r.status)).toEqual([201, 409, 201])
    expect(results[1]?.body).toMatchObject({ status: 409 })
    expect(await topicCount(server, subjectOf(batch[0]))).toBe(1)
    expect(await topicCount(server, subjectOf(refused))).toBe(0)
    expect(await topicCount(server, subjectOf(batch[2]))).toBe(1)
    // The refusal is final even now that the database would take it.
    const again = await push(me, batch)
    expect(again.map((r) => [r.status, r.replayed])).toEqual([
      [201, true],
      [409, true],
      [201, true],
    ])
    expect(again[1]?.body).toEqual(results[1]?.body)
    expect(await topicCount(server, subjectOf(refused))).toBe(0)
  })

  it('applies nothing of a transaction whose stored answer could not be written', async () => {
    const me = await server.signIn(unique('store-fails'))
    const batch = [createTopicMutation(), createTopicMutation('Unstorable'), createTopicMutation()]
    // The answer of the second mutation is stored while the third one starts: when storing it
    // fails, that mutation was already answered as applied, so its whole transaction must go.
    await server.sql.unsafe(`
      CREATE FUNCTION push_test_unstorable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.response_body LIKE '%"Unstorable"%' THEN RAISE EXCEPTION 'disk on fire'; END IF;
      RETURN NEW; END $$;
      CREATE TRIGGER push_test_unstorable BEFORE UPDATE ON idempotency_keys FOR EACH ROW
      EXECUTE FUNCTION push_test_unstorable();`)
    expectConsole('error', /^Unhandled error on POST \/api\/topics: .*disk on fire/s)
    expectConsole('error', /^Unhandled error on POST \/api\/sync\/push: .*disk on fire/s)
    try {
      const res = await me.post('/api/sync/push', { clientId: 'device-1', mutations: batch })
      expect(res.status).toBe(500)
    } finally {
      await server.sql.unsafe(`
        DROP TRIGGER push_test_unstorable ON idempotency_keys; DROP FUNCTION push_test_unstorable();`)
    }
    for (const m of batch) expect(await topicCount(server, subjectOf(m))).toBe(0)

    const retried = await push(me, batch)
    expect(retried.map((r) => [r.status, r.replayed])).toEqual([
      [201, false],
      [201, false],
      [201, false],
    ])
    const again = await push(me, batch)
    expect(again.map((r) => [r.status, r.replayed])).toEqual([
      [201, true],
      [201, true],
      [201, true],
    ])
    for (const m of batch) expect(await topicCount(server, subjectOf(m))).toBe(1)
  })

  it.skipIf(!process.env.DATABASE_URL)(
    'loses and doubles nothing when the server is killed mid-batch and the batch goes to another instance (PostgreSQL only)',
    async () => {
      const victim = await startTestServer({}, { sharing: server })
      const mentor = await server.signIn(unique('kill-mentor'))
      const topic = await approvedTopic(admin, mentor)
      const onVictim = await victim.signIn(unique('kill-mentee'))
      const batch: PushMutation[] = [
        createTopicMutation(),
        { id: randomUUID(), method: 'POST', path: `/api/topics/${topic.id}/apply` },
        createTopicMutation(),
      ]
      // Hold the topic's row lock, so the second mutation is mid-transaction when the server dies:
      // the first is applied in the batch's transaction, not committed.
      const locker = postgres(server.databaseUrl as string, { max: 1, onnotice: () => {} })
      let release: () => void = () => {}
      const held = new Promise<void>((resolve) => {
        release = resolve
      })
      let locked = false
      // The cut connection of the mutation it was running is the database going away (a 503
      // for a client still there, decision 0021), not a fault of the server: nothing is logged,
      // which the console guard holds.
      const lock = locker.begin(async (tx) => {
        await tx`SELECT 1 FROM topics WHERE id = ${topic.id} FOR UPDATE`
        locked = true
        await held
      })
      try {
        await expect.poll(() => locked).toBe(true)
        const inFlight = onVictim
          .post('/api/sync/push', { clientId: 'doomed', mutations: batch })
          .catch((error: unknown) => error)
        await expect
          .poll(async () => {
            const [row] = await server.sql<{ n: number }[]>`
              SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`
            return row?.n
          })
          .toBe(1)
        await victim.kill()
        expect(await inFlight).toBeInstanceOf(Error)
      } finally {
        release()
        await lock
        await locker.end()
        await victim.stop()
      }
      const [applications] = await server.sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM applications WHERE topic_id = ${topic.id}`
      expect(applications?.n).toBe(0)
      // The batch was one transaction: the mutation before the cut was not kept either.
      expect(await topicCount(server, subjectOf(batch[0]))).toBe(0)

      // The client pushes its whole queue to the instance that is still up.
      const survivor = new Client(server.url)
      survivor.cookie = onVictim.cookie
      const results = await push(survivor, batch)
      expect(results.map((r) => [r.status, r.replayed])).toEqual([
        [201, false],
        [201, false],
        [201, false],
      ])
      for (const m of [batch[0], batch[2]]) {
        expect(await topicCount(server, subjectOf(m))).toBe(1)
      }
      const [after] = await server.sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM applications WHERE topic_id = ${topic.id}`
      expect(after?.n).toBe(1)
    },
  )
})
