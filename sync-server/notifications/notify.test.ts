import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NOTIFICATION_KINDS } from '../../shared/notification.ts'
import { EMAIL_CATEGORIES, emailModeFor, wantsDelivery } from '../../shared/preferences.ts'
import { unique } from '../test/api.ts'
import { startTestServer, type TestServer } from '../test/server.ts'
import { notify } from './notify.ts'
import type { PreferenceRow } from './queries.ts'
import { preferenceColumns, preferencesFromRow } from './queries.ts'

// notify() writes a notification's digest mark with the row, in SQL
// (digestStateSql), and checks it against preferences.ts. Here every kind,
// for people whose preferences differ in each way that decides it, must get
// the mark preferences.ts gives, without notify having to set it right.

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server?.stop())

type Person = {
  label: string
  email: string | null
  /** The stored preferences row; null: none (the defaults). */
  row: null | {
    off?: (typeof EMAIL_CATEGORIES)[number]
    reminders?: boolean
    emailDelivery: Record<string, unknown>
  }
}

const everyCategory = (mode: unknown) =>
  Object.fromEntries(EMAIL_CATEGORIES.map((category) => [category, mode]))

const PEOPLE: Person[] = [
  { label: 'no preferences', email: 'a@example.com', row: null },
  { label: 'no preferences, no e-mail', email: null, row: null },
  { label: 'no preferences, blank e-mail', email: '  ', row: null },
  { label: 'a row with nothing set', email: 'b@example.com', row: { emailDelivery: {} } },
  { label: 'all digest', email: 'c@example.com', row: { emailDelivery: everyCategory('digest') } },
  {
    label: 'all immediate',
    email: 'd@example.com',
    row: { emailDelivery: everyCategory('immediate') },
  },
  { label: 'all digest, no e-mail', email: '', row: { emailDelivery: everyCategory('digest') } },
  {
    label: 'unknown modes',
    email: 'e@example.com',
    row: { emailDelivery: everyCategory('weekly') },
  },
  { label: 'modes not text', email: 'f@example.com', row: { emailDelivery: everyCategory(1) } },
  ...EMAIL_CATEGORIES.map((category) => ({
    label: `${category} off, all digest`,
    email: 'g@example.com',
    row:
      category === 'reminders'
        ? { reminders: false, emailDelivery: everyCategory('digest') }
        : { off: category, emailDelivery: everyCategory('digest') },
  })),
]

const COLUMN = {
  newApplications: 'new_applications',
  topicStatusUpdates: 'topic_status_updates',
  applicationStatusUpdates: 'application_status_updates',
  newTopicsForReview: 'new_topics_for_review',
} as const

async function createPeople(): Promise<{ id: string; person: Person }[]> {
  const made = []
  for (const person of PEOPLE) {
    const [user] = await server.sql<{ id: string }[]>`
      INSERT INTO users (username, full_name, email)
      VALUES (${unique('notify')}, ${person.label}, ${person.email}) RETURNING id`
    const id = user?.id ?? ''
    const row = person.row
    if (row) {
      await server.sql`
        INSERT INTO notification_preferences (user_id, reminders, email_delivery)
        VALUES (${id}, ${row.reminders ?? true}, ${server.sql.json(row.emailDelivery as never)})`
      if (row.off && row.off !== 'reminders') {
        await server.sql`UPDATE notification_preferences SET ${server.sql(COLUMN[row.off])} = false
          WHERE user_id = ${id}`
      }
    }
    made.push({ id, person })
  }
  return made
}

describe('notify: the digest mark', () => {
  it('is written with the row as preferences.ts decides it, for every kind and preference', async () => {
    const people = await createPeople()
    const rows = await server.sql<(PreferenceRow & { userId: string; email: string | null })[]>`
      SELECT u.id AS "userId", u.email, ${preferenceColumns(server.sql)}
      FROM users u LEFT JOIN notification_preferences p ON p.user_id = u.id
      WHERE u.id = ANY (${people.map((p) => p.id)}::uuid[])`
    let waitingSeen = 0
    for (const kind of NOTIFICATION_KINDS) {
      const written = await server.sql.begin((tx) =>
        notify(
          tx,
          people.map((p) => p.id),
          { kind, title: 'T', message: 'M', link: null, topicId: null },
        ),
      )
      expect(written).toHaveLength(people.length)
      const marks = await server.sql<{ userId: string; digestState: string | null }[]>`
        SELECT user_id AS "userId", digest_state AS "digestState" FROM notifications
        WHERE id = ANY (${written.map((w) => w.notificationId)}::uuid[])`
      for (const row of rows) {
        const preferences = preferencesFromRow(row)
        const hasEmail = (row.email ?? '').trim() !== ''
        const expected =
          wantsDelivery(preferences, kind) &&
          hasEmail &&
          emailModeFor(preferences, kind) === 'digest'
        const label = people.find((p) => p.id === row.userId)?.person.label
        const mark = marks.find((m) => m.userId === row.userId)?.digestState
        expect(mark ?? null, `${kind}, ${label}`).toBe(expected ? 'waiting' : null)
        if (expected) waitingSeen += 1
      }
    }
    // The marks were right as written: notify set none right afterwards (it would have
    // said so on console.error, which fails the test: test-support/console-guard.ts).
    // Both outcomes occur, for every kind's category.
    expect(waitingSeen).toBeGreaterThan(NOTIFICATION_KINDS.length)
  })
})
