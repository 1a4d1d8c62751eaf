import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  DEFAULT_MATCH_WEIGHTS,
  DEFAULT_PROGRAMME_SETTINGS,
  DEFAULT_REMINDER_SETTINGS,
} from '../../shared/programme-settings.ts'
import { runReminders } from '../reminders/run.ts'
import { approvedTopic, expectProblem, notificationsOf, signInAdmin, unique } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'settings-admin')
})
afterAll(async () => {
  await server?.stop()
})

// The tests of this file run in order on one database: the settings are one per programme.

describe('programme settings', () => {
  it('answers the defaults while nothing was set', async () => {
    const res = await admin.get('/api/admin/settings')
    expect(res.status, res.text).toBe(200)
    expect(res.body).toEqual(DEFAULT_PROGRAMME_SETTINGS)
    expect(res.body).toMatchObject({
      reminders: { mentorAnswerDays: 3, menteeStillOpenDays: 7, checkInEscalationDays: 45 },
      programmeLengthMonths: 6,
      pendingApplicationLimit: null,
    })
    expect((await admin.get('/api/admin/settings/changes')).body).toEqual([])
  })

  it('changes the weights, logs the change with before and after, and replays a repeated key', async () => {
    const weights = { ...DEFAULT_MATCH_WEIGHTS, location: 4, responsiveness: 0 }
    const options = { headers: { 'Idempotency-Key': randomUUID() } }

    const res = await admin.patch('/api/admin/settings', { matchWeights: weights }, options)
    const again = await admin.patch('/api/admin/settings', { matchWeights: weights }, options)

    expect(res.status, res.text).toBe(200)
    expect(res.body).toEqual({
      ...DEFAULT_PROGRAMME_SETTINGS,
      matchWeights: weights,
      updatedAt: expect.any(String),
      updatedBy: { id: admin.user?.id, username: 'settings-admin', full_name: expect.any(String) },
    })
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.body).toEqual(res.body)
    expect((await admin.get('/api/admin/settings')).body).toEqual(res.body)
    const log = await admin.get('/api/admin/settings/changes')
    expect(log.status).toBe(200)
    expect(log.body).toEqual([
      {
        id: expect.any(String),
        setting: 'matchWeights',
        before: DEFAULT_MATCH_WEIGHTS,
        after: weights,
        changedAt: expect.any(String),
        changedBy: {
          id: admin.user?.id,
          username: 'settings-admin',
          full_name: expect.any(String),
        },
      },
    ])
  })

  it('logs nothing for a change to the same values, and each real change newest first', async () => {
    const current = (await admin.get('/api/admin/settings')).body.matchWeights
    const same = await admin.patch('/api/admin/settings', { matchWeights: { ...current } })
    expect(same.status).toBe(200)
    expect((await admin.get('/api/admin/settings/changes')).body).toHaveLength(1)

    const next = { ...current, seniority: 7 }
    const other = await signInAdmin(server, unique('other-admin'))
    expect((await other.patch('/api/admin/settings', { matchWeights: next })).status).toBe(200)
    const log = (await admin.get('/api/admin/settings/changes')).body
    expect(log).toHaveLength(2)
    expect(log[0]).toMatchObject({
      before: current,
      after: next,
      changedBy: { id: other.user?.id },
    })
    expect((await admin.get('/api/admin/settings')).body.updatedBy.id).toBe(other.user?.id)
  })

  it('refuses people who are not administrators with 403', async () => {
    const member = await server.signIn(unique('member'))
    for (const res of [
      await member.get('/api/admin/settings'),
      await member.patch('/api/admin/settings', { matchWeights: DEFAULT_MATCH_WEIGHTS }),
      await member.get('/api/admin/settings/changes'),
    ]) {
      expectProblem(res, 403, /Only administrators/)
    }
    expectProblem(await server.anonymous().get('/api/admin/settings'), 401)
  })

  it.each([
    ['nothing to change', {}, ''],
    ['an unknown setting', { reminderDays: 3 }, ''],
    [
      'a weight above 10',
      { matchWeights: { ...DEFAULT_MATCH_WEIGHTS, location: 11 } },
      'matchWeights.location',
    ],
    [
      'interests weighing nothing',
      { matchWeights: { ...DEFAULT_MATCH_WEIGHTS, interests: 0 } },
      'matchWeights.interests',
    ],
    ['a missing weight', { matchWeights: { interests: 5 } }, 'matchWeights.seniority'],
  ])('refuses %s with 400', async (_name, body, path) => {
    const res = await admin.patch('/api/admin/settings', body)
    expectProblem(res, 400)
    expect(res.body.errors).toContainEqual(expect.objectContaining({ path }))
  })

  it.each([
    [
      'a check-in escalation not after the check-in',
      { reminders: { ...DEFAULT_REMINDER_SETTINGS, checkInDays: 30, checkInEscalationDays: 30 } },
      'reminders.checkInEscalationDays',
    ],
    [
      'a reminder of 0 days',
      { reminders: { ...DEFAULT_REMINDER_SETTINGS, mentorAnswerDays: 0 } },
      'reminders.mentorAnswerDays',
    ],
    ['a programme of 0 months', { programmeLengthMonths: 0 }, 'programmeLengthMonths'],
    ['a limit of 1.5', { pendingApplicationLimit: 1.5 }, 'pendingApplicationLimit'],
  ])('refuses %s with 400', async (_name, body, path) => {
    const res = await admin.patch('/api/admin/settings', body)
    expectProblem(res, 400)
    expect(res.body.errors).toContainEqual(expect.objectContaining({ path }))
  })
})

describe('follow-through settings (issue 18)', () => {
  it('changes reminders, programme length and the pending limit, each logged with who and when', async () => {
    const reminders = { ...DEFAULT_REMINDER_SETTINGS, checkInDays: null, feedbackDays: 5 }
    const res = await admin.patch('/api/admin/settings', {
      reminders,
      programmeLengthMonths: 4,
      pendingApplicationLimit: 3,
    })
    expect(res.status, res.text).toBe(200)
    expect(res.body).toMatchObject({
      reminders,
      programmeLengthMonths: 4,
      pendingApplicationLimit: 3,
      updatedBy: { id: admin.user?.id },
    })
    const log = (await admin.get('/api/admin/settings/changes')).body
    const changedBy = {
      id: admin.user?.id,
      username: 'settings-admin',
      full_name: expect.any(String),
    }
    const changedAt = expect.any(String)
    expect(log.slice(0, 3)).toEqual(
      expect.arrayContaining([
        {
          id: expect.any(String),
          setting: 'reminders',
          before: DEFAULT_REMINDER_SETTINGS,
          after: reminders,
          changedAt,
          changedBy,
        },
        {
          id: expect.any(String),
          setting: 'programmeLengthMonths',
          before: 6,
          after: 4,
          changedAt,
          changedBy,
        },
        {
          id: expect.any(String),
          setting: 'pendingApplicationLimit',
          before: null,
          after: 3,
          changedAt,
          changedBy,
        },
      ]),
    )

    const off = await admin.patch('/api/admin/settings', { pendingApplicationLimit: null })
    expect(off.status, off.text).toBe(200)
    expect(off.body.pendingApplicationLimit).toBeNull()
    expect((await admin.get('/api/admin/settings/changes')).body[0]).toMatchObject({
      setting: 'pendingApplicationLimit',
      before: 3,
      after: null,
    })
  })

  it('reads a stored value that no longer passes its schema as the default', async () => {
    await server.sql`UPDATE programme_settings SET value = '{"mentorAnswerDays": "soon"}'::jsonb
      WHERE key = 'reminders'`
    await server.sql`UPDATE programme_settings SET value = '"six"'::jsonb
      WHERE key = 'programmeLengthMonths'`
    const res = await admin.get('/api/admin/settings')
    expect(res.body.reminders).toEqual(DEFAULT_REMINDER_SETTINGS)
    expect(res.body.programmeLengthMonths).toBe(DEFAULT_PROGRAMME_SETTINGS.programmeLengthMonths)
  })

  it('applies a changed threshold at once: the next reminder run uses it', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const mentee = await server.signIn(unique('mentee'))
    const topic = await approvedTopic(admin, mentor)
    const applied = await mentee.post(`/api/topics/${topic.id}/apply`)
    expect(applied.status, applied.text).toBe(201)
    const inTwoDays = new Date(Date.now() + 2 * 24 * 60 * 60 * 1000)

    await runReminders(server.sql, { now: inTwoDays })
    expect(await notificationsOf(mentor, 'reminder_answer')).toEqual([])
    const changed = await admin.patch('/api/admin/settings', {
      reminders: { ...DEFAULT_REMINDER_SETTINGS, mentorAnswerDays: 1 },
    })
    expect(changed.status, changed.text).toBe(200)
    await runReminders(server.sql, { now: inTwoDays })
    expect(await notificationsOf(mentor, 'reminder_answer')).toHaveLength(1)
  })
})
