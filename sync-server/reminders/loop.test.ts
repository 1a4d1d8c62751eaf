import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectConsole } from '../../test-support/console-guard.ts'
import type { Sql } from '../db/connect.ts'
import { notificationsOf, signInAdmin } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'
import { startReminders } from './run.ts'
import { reminderFixtures } from './testing.ts'

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'loop-admin')
})
afterAll(async () => {
  await server?.stop()
})

const { pendingFor } = reminderFixtures(
  () => server,
  () => admin,
)

describe('the reminder loop', () => {
  it('sends what is due on its own schedule and stops after its run', async () => {
    const p = await pendingFor(3)
    const loop = startReminders(server.sql, { intervalMs: 50 })
    try {
      await expect
        .poll(async () => (await notificationsOf(p.mentor, 'reminder_answer')).length, {
          timeout: 10_000,
        })
        .toBe(1)
    } finally {
      await loop.stop()
    }
  })

  it('logs a failed run and keeps going', async () => {
    expectConsole('warn', /Reminders failed: the database is down/)
    let calls = 0
    const broken = (() => {
      calls += 1
      return Promise.reject(new Error('the database is down'))
    }) as unknown as Sql
    const loop = startReminders(broken, { intervalMs: 10 })
    await expect.poll(() => calls, { timeout: 5_000 }).toBeGreaterThan(2)
    await loop.stop()
  })
})
