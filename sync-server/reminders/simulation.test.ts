import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { randomSource } from '../demo/scale-data.ts'
import { approvedTopic, signInAdmin, unique } from '../test/api.ts'
import { printFigure } from '../test/figure.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'
import { readFollowUp } from './follow-up.ts'
import { runReminders } from './run.ts'

// A seeded 60-day programme: 40 mentors, 120 applications arriving over the
// first 50 days, mentors who answer with some chance a day (from quick to
// nearly absent) that rises once they were reminded. The runner runs daily on
// a simulated clock; applications are made and answered through the API. The
// same programme without reminders gives the baseline to compare with.

const DAYS = 60
const MENTORS = 40
const APPLICATIONS = 120
const DAY = 24 * 60 * 60 * 1000
const HOUR = 60 * 60 * 1000
/** Chance a day that a mentor answers one application, by kind of mentor. */
const ANSWER_CHANCE = [0.5, 0.3, 0.15, 0.04]
/** How much more likely once reminded (at most 90% a day). */
const REMINDED_FACTOR = 3

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'simulation-admin')
})
afterAll(async () => {
  await server?.stop()
})

type Application = {
  id: string
  mentor: number
  arrivedAt: Date
  answeredAt?: Date
}

type Outcome = { applications: Application[]; violations: string[] }

describe('a simulated 60-day programme', () => {
  it('tells every mentee and the administrators about an application pending 7 days; measures answer times', async () => {
    const { applications, violations } = await simulate(true)
    expect(violations).toEqual([])
    expect(applications.filter((a) => a.answeredAt).length).toBeGreaterThan(APPLICATIONS / 2)
    report('with reminders', applications)
  }, 240_000)

  it('measures the same programme without reminders, for comparison', async () => {
    const { applications } = await simulate(false)
    report('without reminders', applications)
  }, 240_000)
})

/** Runs the programme day by day; with `remind`, checks the 7-day promise after each run. */
async function simulate(remind: boolean): Promise<Outcome> {
  await setAnswerReminders(remind)
  const random = randomSource(18)
  const start = new Date(Math.ceil(Date.now() / DAY) * DAY + (remind ? 1 : 100) * DAY)
  const mentors: { client: Client; chance: number; topicId: string }[] = []
  for (let i = 0; i < MENTORS; i++) {
    const client = await server.signIn(unique('sim-mentor'))
    const topic = await approvedTopic(admin, client, { maxMentees: 2 })
    const chance = ANSWER_CHANCE[i % ANSWER_CHANCE.length] ?? 0.1
    mentors.push({ client, chance, topicId: topic.id })
  }
  // Arrival days over the first 50 days, sorted.
  const arrivals = Array.from({ length: APPLICATIONS }, () => random() * 50).sort((a, b) => a - b)
  const applications: Application[] = []
  const violations: string[] = []
  let next = 0

  for (let day = 1; day <= DAYS; day++) {
    const now = new Date(start.getTime() + day * DAY)
    // Applications that arrived since yesterday, each by a new mentee to a random mentor.
    while (next < arrivals.length && (arrivals[next] ?? DAYS) < day) {
      const arrivedAt = new Date(start.getTime() + (arrivals[next] ?? 0) * DAY)
      const mentor = Math.floor(random() * MENTORS)
      const mentee = await server.signIn(unique('sim-mentee'))
      const res = await mentee.post(`/api/topics/${mentors[mentor]?.topicId}/apply`)
      expect(res.status, res.text).toBe(201)
      await server.sql`UPDATE applications SET created_at = ${arrivedAt} WHERE id = ${res.body.id}`
      applications.push({ id: res.body.id, mentor, arrivedAt })
      next += 1
    }
    // Mentors answer some of what is pending, more likely once reminded.
    const reminded = await remindedApplications()
    for (const a of applications.filter((x) => !x.answeredAt)) {
      const mentor = mentors[a.mentor]
      if (!mentor) continue
      const chance = reminded.has(a.id)
        ? Math.min(0.9, mentor.chance * REMINDED_FACTOR)
        : mentor.chance
      if (random() >= chance) continue
      const res = await mentor.client.patch(`/api/applications/${a.id}`, {
        status: 'rejected',
        rejectionReason: 'Not this round',
      })
      expect(res.status, res.text).toBe(200)
      // Some time since yesterday's run (or since it arrived, if later).
      const from = Math.max(a.arrivedAt.getTime(), now.getTime() - DAY)
      a.answeredAt = new Date(from + random() * (now.getTime() - from))
    }

    await runReminders(server.sql, { now })
    if (!remind) continue

    // Nothing pending 7 days without its mentee told and it on the administrators' list.
    const listed = new Set(
      (await readFollowUp(server.sql, now)).waitingForAnswer.map((w) => w.applicationId),
    )
    const told = await toldMentees()
    for (const a of applications) {
      if (a.answeredAt || now.getTime() - a.arrivedAt.getTime() < 7 * DAY) continue
      if (!told.has(a.id)) violations.push(`day ${day}: ${a.id} pending 7 days, mentee not told`)
      if (!listed.has(a.id)) violations.push(`day ${day}: ${a.id} pending 7 days, not listed`)
    }
  }
  return { applications, violations }
}

function report(label: string, applications: Application[]): void {
  const answered = applications.filter((a) => a.answeredAt)
  const hours = answered
    .map((a) => ((a.answeredAt?.getTime() ?? 0) - a.arrivedAt.getTime()) / HOUR)
    .sort((a, b) => a - b)
  const median = hours[Math.floor(hours.length / 2)] ?? Number.NaN
  printFigure(`Median answer time, simulated programme ${label}`, median, 'hours', '≤ 72 hours')
  const waited = applications.filter(
    (a) => (a.answeredAt?.getTime() ?? Number.POSITIVE_INFINITY) - a.arrivedAt.getTime() >= 7 * DAY,
  )
  console.log(
    `Simulated programme ${label}: ${applications.length} applications, ${answered.length} answered, ${waited.length} waited 7 days or more`,
  )
}

/** Only the answer reminders, on or off. */
async function setAnswerReminders(on: boolean): Promise<void> {
  const res = await admin.patch('/api/admin/settings', {
    reminders: {
      mentorAnswerDays: on ? 3 : null,
      menteeStillOpenDays: on ? 7 : null,
      startDays: null,
      concludeAtProgrammeEnd: false,
      feedbackDays: null,
      checkInDays: null,
      checkInEscalationDays: null,
    },
  })
  expect(res.status, res.text).toBe(200)
}

async function remindedApplications(): Promise<Set<string>> {
  const rows = await server.sql<{ id: string }[]>`
    SELECT subject_id AS id FROM reminders_sent WHERE stage = 'reminder_answer'`
  return new Set(rows.map((r) => r.id))
}

/** Applications whose mentee has a "still open" notification about their topic. */
async function toldMentees(): Promise<Set<string>> {
  const rows = await server.sql<{ id: string }[]>`
    SELECT a.id FROM applications a
    WHERE EXISTS (SELECT 1 FROM notifications n
      WHERE n.user_id = a.mentee_id AND n.topic_id = a.topic_id AND n.kind = 'application_waiting')`
  return new Set(rows.map((r) => r.id))
}
