import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  DEFAULT_MATCH_WEIGHTS,
  DEFAULT_PROGRAMME_SETTINGS,
  DEFAULT_REMINDER_SETTINGS,
} from '../../shared/programme-settings.ts'
import { expectProblem, signInAdmin, unique } from '../test/api.ts'
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
})
