import { describe, expect, test } from 'vitest'
import { createApp } from '../app.ts'
import { loadConfig } from '../config.ts'
import type { Sql } from '../db/connect.ts'
import { declaredRoutes } from '../http/route.ts'
import { replayableRoutes } from '../sync/replayable.ts'

// These answers need no database: no cookie is sent and nothing is written.
const app = createApp({
  sql: undefined as unknown as Sql,
  config: loadConfig({ NODE_ENV: 'test' }),
})

const normalise = (path: string) => path.replace(/\{\w+\}|:\w+/g, ':param')

/** Every operation of the served document, as `METHOD /api/path/{param}`. */
async function documentedOperations(): Promise<string[]> {
  const doc = await (await app.request('/api/openapi.json')).json()
  return Object.entries(doc.paths as Record<string, object>).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
  )
}

describe('the OpenAPI document', () => {
  test('documents exactly the routes the server has', async () => {
    const routed = app.routes
      .filter(
        (r) => ['GET', 'POST', 'PATCH', 'DELETE'].includes(r.method) && r.path.startsWith('/api/'),
      )
      .filter(
        (r) => !r.path.endsWith('*') && r.path !== '/api/openapi.json' && r.path !== '/api/docs',
      )
      .map((r) => `${r.method} ${normalise(r.path)}`)
    const documented = (await documentedOperations()).map(normalise)
    expect(new Set(routed)).toEqual(new Set(documented))
    expect(new Set(documented).size).toBe(documented.length)
  })

  test('covers every call of spec section 7', async () => {
    const calls = [
      'GET /api/user',
      'GET /api/auth/logout',
      'POST /api/auth/dev-login',
      'GET /api/topics',
      'POST /api/topics',
      'GET /api/topics/{id}',
      'PATCH /api/topics/{id}',
      'GET /api/topics/mentor/{userId}',
      'GET /api/topics/{id}/applications',
      'GET /api/topics/{id}/my-application',
      'POST /api/topics/{id}/apply',
      'POST /api/topics/{id}/start',
      'POST /api/topics/{id}/conclude',
      'GET /api/topics/{id}/feedback',
      'POST /api/topics/{id}/feedback',
      'GET /api/my-applications',
      'PATCH /api/applications/{id}',
      'GET /api/interests',
      'GET /api/users',
      'GET /api/users/{username}',
      'PATCH /api/users/{username}',
      'POST /api/admin/topics/{id}/review',
      'POST /api/admin/users/{id}/toggle-admin',
      'GET /api/user/notification-preferences',
      'PATCH /api/user/notification-preferences',
      'GET /api/notifications',
      'PATCH /api/notifications/{id}',
    ]
    // Beyond section 7: the sign-in with Microsoft, the development sign-in page and sync.
    const signIn = [
      'GET /api/auth/microsoft',
      'GET /api/auth/dev-login',
      'GET /api/auth/session',
      'GET /api/user/sessions',
      'POST /api/user/sessions/sign-out-others',
      'POST /api/user/sessions/{id}/sign-out',
    ]
    const sync = [
      'GET /api/sync/pull',
      'POST /api/sync/push',
      'GET /api/sync/events',
      'POST /api/client-events',
    ]
    const push = [
      'GET /api/push/vapid-public-key',
      'POST /api/push/subscriptions',
      'DELETE /api/push/subscriptions',
    ]
    const insights = [
      'GET /api/admin/insights',
      'GET /api/admin/export/topics.csv',
      'GET /api/admin/export/applications.csv',
      'GET /api/admin/export/users.csv',
      'GET /api/admin/export/feedback.csv',
    ]
    // Matching (issue 17).
    const matching = [
      'GET /api/recommendations',
      'GET /api/topics/{id}/candidates',
      'POST /api/topics/{id}/dismissal',
      'GET /api/dismissals',
      'POST /api/topics/{id}/invitations',
      'GET /api/invitations',
      'POST /api/invitations/{id}/decline',
      'GET /api/admin/settings',
      'PATCH /api/admin/settings',
      'GET /api/admin/settings/changes',
      // Follow-through (issue 18).
      'POST /api/notifications/{id}/snooze',
      'POST /api/notifications/{id}/response',
      'GET /api/admin/follow-up',
    ]
    // Follow-through (issue 18): the one-click unsubscribe of every e-mail.
    const unsubscribe = ['GET /api/email/unsubscribe', 'POST /api/email/unsubscribe']
    const documented = await documentedOperations()
    expect(documented.sort()).toEqual(
      [...calls, ...signIn, ...sync, ...push, ...insights, ...matching, ...unsubscribe].sort(),
    )
  })

  test('lets sync push replay exactly the documented REST mutations', async () => {
    const isReplayable = replayableRoutes(() => declaredRoutes(app))
    const replayable = (await documentedOperations()).filter((operation) => {
      const [method = '', path = ''] = operation.split(' ')
      return isReplayable(method, path.replace(/\{\w+\}/g, 'a1b2'))
    })
    expect(replayable.sort()).toEqual(
      [
        'POST /api/topics',
        'PATCH /api/topics/{id}',
        'POST /api/topics/{id}/apply',
        'POST /api/topics/{id}/start',
        'POST /api/topics/{id}/conclude',
        'POST /api/topics/{id}/feedback',
        'PATCH /api/applications/{id}',
        'PATCH /api/users/{username}',
        'POST /api/admin/topics/{id}/review',
        'POST /api/admin/users/{id}/toggle-admin',
        'PATCH /api/user/notification-preferences',
        'PATCH /api/notifications/{id}',
        'POST /api/topics/{id}/dismissal',
        'POST /api/topics/{id}/invitations',
        'POST /api/invitations/{id}/decline',
        'PATCH /api/admin/settings',
        'POST /api/notifications/{id}/snooze',
        'POST /api/notifications/{id}/response',
      ].sort(),
    )
  })

  test('documents the sync endpoints with their schemas and the event stream type', async () => {
    const doc = await (await app.request('/api/openapi.json')).json()
    const pull = doc.paths['/api/sync/pull'].get
    expect(pull.parameters.map((p: { name: string }) => p.name)).toEqual(['cursor', 'limit'])
    expect(
      pull.responses['200'].content['application/json'].schema.properties.changes.properties,
    ).toHaveProperty('topics')
    const push = doc.paths['/api/sync/push'].post
    expect(push.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['clientId', 'mutations']),
    )
    expect(push.parameters).toEqual([])
    expect(doc.paths['/api/topics'].post.parameters).toContainEqual(
      expect.objectContaining({
        name: 'Idempotency-Key',
        in: 'header',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      }),
    )
    expect(push.responses).not.toHaveProperty('422')
    expect(doc.paths['/api/sync/events'].get.responses['200'].content).toHaveProperty(
      'text/event-stream',
    )
  })

  test('is served as OpenAPI 3.1 with request and answer schemas from the shared zod schemas', async () => {
    const res = await app.request('/api/openapi.json')
    expect(res.status).toBe(200)
    const doc = await res.json()
    expect(doc.openapi).toBe('3.1.0')
    const create = doc.paths['/api/topics'].post
    const body = create.requestBody.content['application/json'].schema
    expect(body.required).toEqual(
      expect.arrayContaining(['subject', 'maxMentees', 'seniorityRequired']),
    )
    expect(body.properties.location.enum).toEqual(['online', 'in-person', 'both'])
    expect(create.responses['201'].content['application/json'].schema.properties).toHaveProperty(
      'mentor',
    )
    expect(create.responses['400'].content).toHaveProperty('application/problem+json')
    expect(
      doc.paths['/api/users/{username}'].get.responses['200'].content['application/json'].schema
        .properties,
    ).toHaveProperty('full_name')
  })
})

test('documents the push endpoints, DELETE with its body', async () => {
  const doc = await (await app.request('/api/openapi.json')).json()
  const subscriptions = doc.paths['/api/push/subscriptions']
  expect(
    subscriptions.post.requestBody.content['application/json'].schema.properties.keys.required,
  ).toEqual(['p256dh', 'auth'])
  expect(subscriptions.delete.requestBody.content['application/json'].schema.required).toEqual([
    'endpoint',
  ])
  expect(subscriptions.delete.parameters.map((p: { name: string }) => p.name)).toEqual([
    'Idempotency-Key',
  ])
  expect(
    doc.paths['/api/push/vapid-public-key'].get.responses['200'].content['application/json'].schema
      .required,
  ).toEqual(['publicKey'])
})

describe('the reference page', () => {
  test('lists every endpoint in readable HTML without script', async () => {
    const res = await app.request('/api/docs')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    const page = await res.text()
    const operations = await documentedOperations()
    expect(operations.length).toBeGreaterThan(30)
    for (const operation of operations) expect(page).toContain(operation.split(' ')[1])
    expect(page).not.toContain('<script')
  })
})

describe('a known path under another method', () => {
  test('answers 405 with Allow, as problem+json', async () => {
    const res = await app.request('/api/topics/3f1c9a52-0c7b-4d1e-9a55-2b6f1d3e8a10/start', {
      method: 'GET',
    })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST')
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    const problem = await res.json()
    expect(problem).toMatchObject({ status: 405, title: 'Method not allowed' })
    expect(problem.detail).toMatch(/takes POST/)
  })

  test('lists every method a path takes, HEAD with GET', async () => {
    const res = await app.request('/api/topics', { method: 'OPTIONS' })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('GET, POST, HEAD')
  })

  test('an unknown path is still 404', async () => {
    const res = await app.request('/api/no-such-thing')
    expect(res.status).toBe(404)
  })
})
