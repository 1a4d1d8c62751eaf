import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from './app.ts'
import { approvedTopic, signInAdmin, unique } from './test/api.ts'
import { type Client, startTestServer, type TestServer } from './test/server.ts'

// Issue 15, goal 4: no body, path or header a client can send to a mutating endpoint makes
// the server answer 5xx. `npm test` tries FUZZ_RUNS (default 25) requests per endpoint;
// `npm run fuzz` tries 10,000 each.
const RUNS = Number(process.env.FUZZ_RUNS ?? 25)

/** Every mutating route the app registers, read from the app itself so none is forgotten. */
const ENDPOINTS = (() => {
  const app = createApp({ sql: null as never, config: { STATIC_DIR: 'dist' } as never })
  const seen = new Set<string>()
  for (const route of app.routes) {
    if (['POST', 'PATCH', 'PUT', 'DELETE'].includes(route.method)) {
      seen.add(`${route.method} ${route.path}`)
    }
  }
  return [...seen].map((e) => e.split(' ') as [string, string])
})()

const odd = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u202eevil',
  '\ud800',
  '\udfff\ud800',
  '𝕏🏳️‍🌈',
  'ﷺ',
  '\u200b',
  '%00',
  '../..',
  "'; DROP TABLE topics; --",
  '<script>alert(1)</script>',
  'x'.repeat(70_000),
)
const text = fc.oneof(
  odd,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
)
const hugeNumber = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -(2 ** 63), 1e21, 0.1, -0, 5e-324),
)
const leaf = fc.oneof(text, hugeNumber, fc.boolean(), fc.constant(null))
const value = fc.oneof(
  leaf,
  fc.array(leaf, { maxLength: 4 }),
  fc.dictionary(text, leaf, { maxKeys: 4 }),
)
const FIELDS = [
  'subject',
  'description',
  'maxMentees',
  'seniorityRequired',
  'location',
  'status',
  'reason',
  'rating',
  'comment',
  'userId',
  'endpoint',
  'keys',
  'expirationTime',
  'clientId',
  'mutations',
  'fullName',
  'email',
  'interests',
  'bio',
  'seniority',
  'read',
  'emailOnNewApplication',
  'id',
  'lookingForMentor',
  'preferredLocation',
  'dismissed',
  'menteeId',
  'matchWeights',
  'limit',
] as const
/** Objects with the API's field names and wrong, odd or extreme values. */
const nearValid = fc
  .dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 8 })
  .map((body) => JSON.stringify(body))
/** Arrays or objects nested thousands of levels deep. */
const deep = fc
  .tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean())
  .map(([n, array]) =>
    array ? `${'['.repeat(n)}${']'.repeat(n)}` : `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`,
  )
const numberLiterals = fc.constantFrom(
  '{"maxMentees":1e999}',
  '{"maxMentees":-1e999,"subject":"x"}',
  '{"rating":123456789012345678901234567890}',
  '{"expirationTime":1e400,"endpoint":"https://push.example/x","keys":{"p256dh":"B","auth":"a"}}',
  '{"maxMentees":2.5e-400}',
  '1e999',
)

type Ids = { topic: string; user: string; username: string }

/** Sync push envelopes whose mutations point at real and made-up routes. */
function pushBodies(ids: Ids) {
  const paths = ENDPOINTS.map(([, path]) =>
    path.replace(':id', ids.topic).replace(':username', ids.username),
  )
  // Composed as text: a body nested 20,000 deep would overflow this test's own JSON.stringify.
  const mutation = fc
    .tuple(
      fc.oneof(text, fc.uuid()),
      fc.constantFrom('POST', 'PATCH', 'DELETE', 'GET', 'post', 'X Y', ''),
      fc.oneof(fc.constantFrom(...paths), text),
      fc.oneof(
        value.map((v) => JSON.stringify(v)),
        deep,
      ),
    )
    .map(
      ([id, method, path, body]) =>
        `{"id":${JSON.stringify(id)},"method":"${method}","path":${JSON.stringify(path)},"body":${body}}`,
    )
  return fc
    .tuple(text, fc.array(mutation, { maxLength: 4 }))
    .map(
      ([clientId, mutations]) =>
        `{"clientId":${JSON.stringify(clientId)},"mutations":[${mutations.join(',')}]}`,
    )
}

const contentType = fc.option(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/problem+json',
    'application/json; charset=utf-16',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=zz',
    'multipart/form-data',
    'application/xml',
    '*/*',
  ),
  { nil: undefined },
)

let server: TestServer
let ids: Ids
const actors: Record<'user' | 'admin', Client | undefined> = { user: undefined, admin: undefined }

beforeAll(async () => {
  server = await startTestServer()
  const admin = await signInAdmin(server)
  const mentor = await server.signIn(unique('fuzz-mentor'))
  const topic = await approvedTopic(admin, mentor)
  ids = { topic: topic.id, user: mentor.user?.id ?? '', username: mentor.user?.username ?? '' }
})
afterAll(async () => {
  await server?.stop()
})

/** The signed-in client for `who`, signed in again when a fuzzed request ended its session. */
async function actor(who: 'user' | 'admin' | 'anonymous'): Promise<Client> {
  if (who === 'anonymous') return server.anonymous()
  const current = actors[who]
  if (current) return current
  const client = who === 'admin' ? await signInAdmin(server) : await server.signIn(unique('fuzz'))
  actors[who] = client
  return client
}

describe.each(ENDPOINTS)('%s %s with fuzzed input', (method, path) => {
  it(
    `never answers 5xx (${RUNS} requests)`,
    async () => {
      const param = fc.oneof(
        fc.constantFrom(ids.topic, ids.user, ids.username, randomUUID()),
        text.map((t) => encodeURIComponent(t.toWellFormed()).slice(0, 300) || 'x'),
      )
      const body = fc.oneof(
        { arbitrary: nearValid, weight: 4 },
        { arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)), weight: 2 },
        { arbitrary: path === '/api/sync/push' ? pushBodies(ids) : nearValid, weight: 3 },
        { arbitrary: deep, weight: 1 },
        { arbitrary: numberLiterals, weight: 1 },
        { arbitrary: text, weight: 1 },
        { arbitrary: fc.uint8Array({ maxLength: 300 }), weight: 1 },
        { arbitrary: fc.constant(undefined), weight: 1 },
      )
      const property = fc.asyncProperty(
        fc.constantFrom('user', 'admin', 'anonymous' as const),
        fc.tuple(param, param),
        body,
        contentType,
        fc.option(fc.stringMatching(/^[\x21-\x7e]{0,300}$/), { nil: undefined }),
        async (who, [first, second], payload, type, key) => {
          const client = await actor(who)
          const url = path.replace(':id', first).replace(':username', second)
          const headers: Record<string, string> = { accept: 'application/json' }
          if (client.cookie) headers.cookie = client.cookie
          if (type) headers['content-type'] = type
          if (key !== undefined) headers['idempotency-key'] = key
          const res = await fetch(server.url + url, { method, headers, body: payload })
          const answer = await res.text()
          if (res.status === 401 && who !== 'anonymous') actors[who] = undefined
          expect(
            res.status,
            `${method} ${url} (${type}) ${String(payload).slice(0, 200)} → ${answer.slice(0, 300)}`,
          ).toBeLessThan(500)
        },
      )
      await fc.assert(property, { numRuns: RUNS })
    },
    60_000 + RUNS * 200,
  )
})
