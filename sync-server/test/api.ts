import { expect } from 'vitest'
import type { Answer, Client, TestServer } from './server.ts'

// Helpers the HTTP test files share: names, signed-in users, topics,
// notifications and the RFC 9457 problem answer.

let counter = 0

/** A name no other call in this test file answers. */
export function unique(prefix: string): string {
  counter += 1
  return `${prefix}-${counter}`
}

/** A signed-in user made an administrator in the database. */
export async function signInAdmin(server: TestServer, username = unique('admin')): Promise<Client> {
  const admin = await server.signIn(username)
  await server.sql`UPDATE users SET is_admin = true WHERE id = ${admin.user?.id ?? ''}`
  return admin
}

export type Topic = { id: string; subject: string; status: string }

/** A valid body for POST /api/topics: a fresh subject, two places, for juniors. */
export function topicBody(overrides: Record<string, unknown> = {}) {
  return { subject: unique('Topic'), maxMentees: 2, seniorityRequired: ['junior'], ...overrides }
}

/** A topic `mentor` proposes (status proposed), with `topicBody(overrides)`. */
export async function createTopic(
  mentor: Client,
  overrides: Record<string, unknown> = {},
): Promise<Topic> {
  const res = await mentor.post('/api/topics', topicBody(overrides))
  expect(res.status, res.text).toBe(201)
  return res.body
}

/** A topic `mentor` proposes and `admin` approves: open for applications. Answers it as created. */
export async function approvedTopic(
  admin: Client,
  mentor: Client,
  overrides: Record<string, unknown> = {},
): Promise<Topic> {
  const topic = await createTopic(mentor, overrides)
  const res = await admin.post(`/api/admin/topics/${topic.id}/review`, { status: 'approved' })
  expect(res.status, res.text).toBe(200)
  return topic
}

/** The status of a topic as the database holds it. */
export async function statusOf(server: TestServer, topicId: string): Promise<string | undefined> {
  const [row] = await server.sql`SELECT status FROM topics WHERE id = ${topicId}`
  return row?.status
}

/** How many topics have this subject. */
export async function topicCount(server: TestServer, subject: string): Promise<number> {
  const [row] = await server.sql<{ count: number }[]>`
    SELECT count(*)::int AS count FROM topics WHERE subject = ${subject}`
  return row?.count ?? -1
}

/** The notifications of `client`, newest first; only those of `kind` when given. */
export async function notificationsOf(client: Client, kind?: string): Promise<Answer['body'][]> {
  const res = await client.get('/api/notifications')
  expect(res.status).toBe(200)
  return kind === undefined ? res.body : res.body.filter((n: { kind: string }) => n.kind === kind)
}

/** The status, media type and members every RFC 9457 problem answer has. */
function expectProblemShape(res: Answer, status: number): void {
  expect(res.status, res.text).toBe(status)
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  expect(res.body).toMatchObject({ type: expect.any(String), title: expect.any(String), status })
}

/** An RFC 9457 problem answer with a detail of more than 8 characters, matching `detail` when given. */
export function expectProblem(res: Answer, status: number, detail?: RegExp): void {
  expectProblemShape(res, status)
  expect(res.body.detail).toEqual(expect.any(String))
  expect(res.body.detail.length).toBeGreaterThan(8)
  if (detail) expect(res.body.detail).toMatch(detail)
}

/**
 * An RFC 9457 problem answer whose detail is a sentence a person can read,
 * containing `detail` when given.
 */
export function expectReadableProblem(res: Answer, status: number, detail?: string): void {
  expectProblemShape(res, status)
  expect(res.body.detail).toMatch(/^[A-Za-z][^{}<>\n]*\w[^{}<>\n]*$/)
  expect(res.body.detail.split(' ').length).toBeGreaterThan(1)
  if (detail !== undefined) expect(res.body.detail).toContain(detail)
}
