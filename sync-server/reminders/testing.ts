import { expect } from 'vitest'
import { DEFAULT_REMINDER_SETTINGS } from '../../shared/programme-settings.ts'
import { approvedTopic, type Topic, unique } from '../test/api.ts'
import type { Client, TestServer } from '../test/server.ts'
import { runReminders } from './run.ts'

// Helpers the reminder tests share. The runner is called with a clock of the
// test's choosing: what the routes do happens now, and the runner is asked
// what is due days or months later.

export const MINUTE = 60_000
export const DAY = 24 * 60 * MINUTE
export const later = (from: Date, ms: number) => new Date(from.getTime() + ms)

export type Pending = {
  mentor: Client
  mentee: Client
  topic: Topic
  applicationId: string
  /** When the mentee applied. */
  at: Date
}

/**
 * A stored time as a Date, rounded up to the millisecond: the database keeps
 * microseconds, so the Date of the same instant would be up to 1 ms early.
 */
function upToMs(db: TestServer['sql'], column: string) {
  return db`(ceil(extract(epoch FROM ${db(column)}) * 1000) * interval '1 millisecond'
    + 'epoch'::timestamptz)`
}

/** Test fixtures on `server`, with `admin` approving topics and changing settings. */
export function reminderFixtures(server: () => TestServer, admin: () => Client) {
  const sql = () => server().sql

  const run = (now: Date) => runReminders(sql(), { now })

  async function timeOf(applicationId: string, column = 'created_at'): Promise<Date> {
    const [row] = await sql()<{ at: Date }[]>`
      SELECT ${upToMs(sql(), column)} AS at FROM applications WHERE id = ${applicationId}`
    return row?.at ?? new Date(Number.NaN)
  }

  /** A mentee's pending application to a new topic. */
  async function pendingApplication(): Promise<Pending> {
    const mentor = await server().signIn(unique('mentor'))
    const mentee = await server().signIn(unique('mentee'))
    const topic = await approvedTopic(admin(), mentor)
    const res = await mentee.post(`/api/topics/${topic.id}/apply`)
    expect(res.status, res.text).toBe(201)
    return { mentor, mentee, topic, applicationId: res.body.id, at: await timeOf(res.body.id) }
  }

  /** A pending application made `days` (and a minute) ago: a snooze counts from the real clock, so the wait does too. */
  async function pendingFor(days: number): Promise<Pending> {
    const p = await pendingApplication()
    await sql()`UPDATE applications
      SET created_at = now() - make_interval(days => ${days}) - interval '1 minute'
      WHERE id = ${p.applicationId}`
    return p
  }

  /** The topic's lifecycle times as stored. */
  async function topicTimes(topicId: string) {
    const [row] = await sql()<
      { startedAt: Date; concludedAt: Date; lastActivityAt: Date; conclusionDue: Date }[]
    >`
      SELECT ${upToMs(sql(), 'started_at')} AS "startedAt",
        ${upToMs(sql(), 'concluded_at')} AS "concludedAt",
        ${upToMs(sql(), 'last_activity_at')} AS "lastActivityAt",
        ${upToMs(sql(), 'started_at')} + interval '6 months' AS "conclusionDue"
      FROM topics WHERE id = ${topicId}`
    if (!row) throw new Error('no such topic')
    return row
  }

  /** The mentor accepts; answers when. */
  async function accept(p: Pending): Promise<Date> {
    const res = await p.mentor.patch(`/api/applications/${p.applicationId}`, {
      status: 'accepted',
    })
    expect(res.status, res.text).toBe(200)
    return timeOf(p.applicationId, 'decided_at')
  }

  /** A started topic with one accepted mentee. */
  async function startedTopic(): Promise<Pending & { startedAt: Date }> {
    const p = await pendingApplication()
    await accept(p)
    const res = await p.mentor.post(`/api/topics/${p.topic.id}/start`)
    expect(res.status, res.text).toBe(200)
    return { ...p, startedAt: (await topicTimes(p.topic.id)).startedAt }
  }

  /** The mentor concludes; answers when. */
  async function conclude(p: Pending): Promise<Date> {
    const res = await p.mentor.post(`/api/topics/${p.topic.id}/conclude`, {
      mentorFeedback: 'We covered everything we planned.',
    })
    expect(res.status, res.text).toBe(200)
    return (await topicTimes(p.topic.id)).concludedAt
  }

  /** The default reminder settings with `changes`. */
  async function setReminders(changes: Partial<typeof DEFAULT_REMINDER_SETTINGS>): Promise<void> {
    const res = await admin().patch('/api/admin/settings', {
      reminders: { ...DEFAULT_REMINDER_SETTINGS, ...changes },
    })
    expect(res.status, res.text).toBe(200)
  }

  return {
    run,
    pendingApplication,
    pendingFor,
    topicTimes,
    accept,
    startedTopic,
    conclude,
    setReminders,
  }
}
