import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { pendingLimitMessage } from '../../../../shared/application.ts'
import type { NotificationKind } from '../../../../shared/notification.ts'
import { DEFAULT_PREFERENCES } from '../../../../shared/preferences.ts'
import { DEFAULT_PROGRAMME_SETTINGS } from '../../../../shared/programme-settings.ts'
import type { SyncNotification, SyncUser } from '../engine/db.ts'
import {
  readOutbox,
  readPendingLimit,
  readPreferences,
  readRow,
  readSettings,
} from '../engine/view.ts'
import { applicationRow, localContext, topicRow, userRow } from '../testing/fixtures.ts'
import { MutationRefused } from './mutation.ts'
import { bindMutations } from './mutations.ts'

// Issue 18 on the device: preferences saved whole, the programme settings
// saved by changed key, the pending limit refusing an apply, and the bell's
// snooze and check-in answer, each an outbox row with its optimistic change.

const mentor = userRow({ username: 'ft-mentor' })
const mentee = userRow({ username: 'ft-mentee' })
const admin = userRow({ username: 'ft-admin', isAdmin: true })
let contexts: ReturnType<typeof localContext>[] = []

async function setup(me: SyncUser) {
  const ctx = localContext(me)
  contexts.push(ctx)
  await ctx.db.users.bulkPut([mentor, mentee, admin])
  return { ctx, db: ctx.db, mutate: bindMutations(ctx) }
}

afterEach(async () => {
  for (const c of contexts) await c.db.delete()
  contexts = []
})

async function refusal(p: Promise<unknown>): Promise<MutationRefused> {
  try {
    await p
  } catch (error) {
    expect(error).toBeInstanceOf(MutationRefused)
    return error as MutationRefused
  }
  throw new Error('expected a refusal')
}

function notification(
  kind: NotificationKind,
  over: Partial<SyncNotification> = {},
): SyncNotification {
  return {
    id: randomUUID(),
    kind,
    title: 'An application is waiting',
    message: 'Sam applied 3 days ago.',
    link: null,
    createdAt: '2025-06-01T08:00:00.000Z',
    read: false,
    topicId: null,
    snoozedUntil: null,
    response: null,
    version: 1,
    ...over,
  }
}

describe('preferences', () => {
  it('merges a change with the current row and PATCHes the whole object', async () => {
    const { db, mutate } = await setup(mentee)
    await db.preferences.put({ key: 'me', ...DEFAULT_PREFERENCES, timeZone: 'Europe/Berlin' })
    await mutate.savePreferences({ digestHour: 18 })
    await mutate.savePreferences({
      emailDelivery: { ...DEFAULT_PREFERENCES.emailDelivery, reminders: 'immediate' },
    })
    const outbox = await readOutbox(db)
    expect(outbox.map((r) => [r.method, r.path])).toEqual([
      ['PATCH', '/api/user/notification-preferences'],
      ['PATCH', '/api/user/notification-preferences'],
    ])
    // The second carries the first's change: two quick changes never undo each other.
    expect(outbox[1]?.body).toEqual({
      ...DEFAULT_PREFERENCES,
      timeZone: 'Europe/Berlin',
      digestHour: 18,
      emailDelivery: { ...DEFAULT_PREFERENCES.emailDelivery, reminders: 'immediate' },
    })
    expect(await readPreferences(db)).toMatchObject({ digestHour: 18, sync: { pending: true } })
  })

  it('merges field by field: two quick changes to one group keep both', async () => {
    const { db, mutate } = await setup(mentee)
    await db.preferences.put({ key: 'me', ...DEFAULT_PREFERENCES })
    await mutate.savePreferences({ emailDelivery: { newApplications: 'digest' } })
    await mutate.savePreferences({ emailDelivery: { reminders: 'immediate' } })
    await mutate.savePreferences({ emailNotifications: { newTopicsForReview: false } })
    const read = await readPreferences(db)
    expect(read?.emailDelivery).toEqual({
      ...DEFAULT_PREFERENCES.emailDelivery,
      newApplications: 'digest',
      reminders: 'immediate',
    })
    expect(read?.emailNotifications).toEqual({
      ...DEFAULT_PREFERENCES.emailNotifications,
      newTopicsForReview: false,
    })
    expect((await readOutbox(db))[2]?.body).toMatchObject({
      emailDelivery: { newApplications: 'digest', reminders: 'immediate' },
    })
  })

  it('reads a row cached before issue 18 with the defaults, and saves it whole', async () => {
    const { db, mutate } = await setup(mentee)
    await db.table('preferences').put({
      key: 'me',
      emailNotifications: { ...DEFAULT_PREFERENCES.emailNotifications, newApplications: false },
    })
    const read = await readPreferences(db)
    expect(read?.quietHours).toEqual(DEFAULT_PREFERENCES.quietHours)
    expect(read?.timeZone).toBeNull()
    await mutate.savePreferences({ timeZone: 'America/New_York' })
    const [row] = await readOutbox(db)
    expect(row?.body).toMatchObject({
      emailNotifications: { newApplications: false },
      timeZone: 'America/New_York',
      reminders: true,
    })
  })

  it('refuses quiet hours that start and end at one hour, and an unknown time zone, queueing nothing', async () => {
    const { db, mutate } = await setup(mentee)
    await db.preferences.put({ key: 'me', ...DEFAULT_PREFERENCES })
    const quiet = await refusal(
      mutate.savePreferences({ quietHours: { enabled: true, from: 9, to: 9, weekends: false } }),
    )
    expect(quiet.status).toBe(400)
    expect(quiet.errors?.[0]?.message).toBe('Quiet hours must start and end at different hours')
    expect((await refusal(mutate.savePreferences({ timeZone: 'Mars/Olympus' }))).status).toBe(400)
    expect(await db.outbox.count()).toBe(0)
    // Off, the same hours are fine: nothing is quiet.
    await mutate.savePreferences({
      quietHours: { enabled: false, from: 9, to: 9, weekends: false },
    })
    expect(await db.outbox.count()).toBe(1)
  })
})

describe('programme settings', () => {
  it('PATCHes only the changed keys and shows them at once', async () => {
    const { db, mutate } = await setup(admin)
    await db.settings.put({ key: 'programme', ...DEFAULT_PROGRAMME_SETTINGS })
    await mutate.saveProgrammeSettings({ pendingApplicationLimit: 1 })
    const [row] = await readOutbox(db)
    expect(row).toMatchObject({
      method: 'PATCH',
      path: '/api/admin/settings',
      body: { pendingApplicationLimit: 1 },
    })
    expect(await readSettings(db)).toMatchObject({
      pendingApplicationLimit: 1,
      reminders: DEFAULT_PROGRAMME_SETTINGS.reminders,
    })
  })

  it('refuses in the schema’s words, and refuses non-administrators', async () => {
    const { mutate } = await setup(admin)
    const bad = await refusal(
      mutate.saveProgrammeSettings({
        reminders: {
          ...DEFAULT_PROGRAMME_SETTINGS.reminders,
          checkInDays: 30,
          checkInEscalationDays: 20,
        },
      }),
    )
    expect(bad.errors?.[0]?.message).toBe(
      'Showing on "Needs a check-in" must come after asking how it is going',
    )
    expect((await refusal(mutate.saveProgrammeSettings({}))).status).toBe(400)
    const other = await setup(mentee)
    expect(
      (await refusal(other.mutate.saveProgrammeSettings({ programmeLengthMonths: 3 }))).status,
    ).toBe(403)
  })

  it('reads a settings row cached before issue 18 with the defaults', async () => {
    const { db } = await setup(admin)
    await db.table('settings').put({
      key: 'programme',
      matchWeights: DEFAULT_PROGRAMME_SETTINGS.matchWeights,
      updatedAt: null,
      updatedBy: null,
    })
    expect(await readSettings(db)).toEqual(DEFAULT_PROGRAMME_SETTINGS)
  })
})

describe('the pending-application limit', () => {
  it('refuses an apply past the limit, counting applications queued on this device', async () => {
    const { db, mutate } = await setup(mentee)
    const first = topicRow(mentor)
    const second = topicRow(mentor)
    const third = topicRow(mentor)
    await db.topics.bulkPut([first, second, third])
    await db.settings.put({
      key: 'programme',
      ...DEFAULT_PROGRAMME_SETTINGS,
      pendingApplicationLimit: 2,
    })
    await db.applications.put(applicationRow(first, mentee))
    expect(await readPendingLimit(db, mentee.id)).toEqual({ pending: 1, limit: 2 })
    await mutate.applyToTopic(second.id)
    expect(await readPendingLimit(db, mentee.id)).toEqual({ pending: 2, limit: 2 })
    const refused = await refusal(mutate.applyToTopic(third.id))
    expect(refused).toMatchObject({ status: 409, detail: pendingLimitMessage(2) })
    expect(await db.outbox.count()).toBe(1)
  })

  it('does not count accepted or rejected applications, and no limit allows any number', async () => {
    const { db, mutate } = await setup(mentee)
    const [a, b, c] = [topicRow(mentor), topicRow(mentor), topicRow(mentor)]
    await db.topics.bulkPut([a, b, c])
    await db.applications.bulkPut([
      applicationRow(a, mentee, { status: 'accepted' }),
      applicationRow(b, mentee, { status: 'rejected' }),
    ])
    await db.settings.put({
      key: 'programme',
      ...DEFAULT_PROGRAMME_SETTINGS,
      pendingApplicationLimit: 1,
    })
    await mutate.applyToTopic(c.id)
    expect(await readPendingLimit(db, mentee.id)).toEqual({ pending: 1, limit: 1 })
    await db.settings.put({ key: 'programme', ...DEFAULT_PROGRAMME_SETTINGS })
    expect(await readPendingLimit(db, mentee.id)).toEqual({ pending: 1, limit: null })
  })
})

describe('reminders in the bell', () => {
  it('"Remind me tomorrow" POSTs the snooze with no body and shows snoozedUntil a day on', async () => {
    const { ctx, db, mutate } = await setup(mentor)
    const n = notification('reminder_answer')
    await db.notifications.put(n)
    await mutate.snoozeNotification(n.id)
    const [row] = await readOutbox(db)
    expect(row).toMatchObject({ method: 'POST', path: `/api/notifications/${n.id}/snooze` })
    expect(row?.body).toBeUndefined()
    const snoozed = await readRow(db, 'notifications', n.id)
    const until = Date.parse(snoozed?.snoozedUntil ?? '')
    const now = ctx.now()
    expect(until).toBeGreaterThan(now + 23.9 * 3_600_000)
    expect(until).toBeLessThanOrEqual(now + 24 * 3_600_000)
    // Once only.
    expect((await refusal(mutate.snoozeNotification(n.id))).status).toBe(409)
  })

  it('refuses to snooze what is not a snoozable reminder', async () => {
    const { db, mutate } = await setup(mentor)
    const plain = notification('new_application')
    const checkIn = notification('check_in')
    await db.notifications.bulkPut([plain, checkIn])
    expect((await refusal(mutate.snoozeNotification(plain.id))).status).toBe(409)
    expect((await refusal(mutate.snoozeNotification(checkIn.id))).status).toBe(409)
    expect(await db.outbox.count()).toBe(0)
  })

  it('answers a check-in once, with { response }', async () => {
    const { db, mutate } = await setup(mentee)
    const n = notification('check_in')
    await db.notifications.put(n)
    await mutate.answerCheckIn(n.id, 'need_help')
    const [row] = await readOutbox(db)
    expect(row).toMatchObject({
      method: 'POST',
      path: `/api/notifications/${n.id}/response`,
      body: { response: 'need_help' },
    })
    expect((await readRow(db, 'notifications', n.id))?.response).toBe('need_help')
    expect((await refusal(mutate.answerCheckIn(n.id, 'going_well'))).status).toBe(409)
    const other = notification('reminder_start')
    await db.notifications.put(other)
    expect((await refusal(mutate.answerCheckIn(other.id, 'going_well'))).status).toBe(409)
  })
})
