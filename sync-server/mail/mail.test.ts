import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type DeliveryWorker, startDeliveryWorker } from '../delivery/worker.ts'
import { approvedTopic, signInAdmin, unique } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'
import { escapeHtml, renderMail } from './render.ts'
import { type MailSink, startMailSink } from './testing.ts'

let server: TestServer
let sink: MailSink
let admin: Client
let worker: DeliveryWorker | undefined
const infos: string[] = []
const warnings: string[] = []
const log = { info: (l: string) => infos.push(l), warn: (l: string) => warnings.push(l) }
const PUBLIC_URL = 'https://pairwise.example.com'

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL })
  sink = await startMailSink()
  admin = await signInAdmin(server, 'mail-admin')
})
afterEach(async () => {
  await worker?.stop()
  worker = undefined
})
afterAll(async () => {
  await sink?.close()
  await server?.stop()
})

function startWorker(env: { SMTP_URL?: string | undefined } = { SMTP_URL: sink.url }) {
  worker = startDeliveryWorker(
    server.sql,
    { ...server.config, ...env },
    // No e-mail delay here: noise.test.ts covers it.
    { log, pollMs: 100, backoffBaseMs: 50, emailDelayMs: 0 },
  )
}

/** A signed-in user with an e-mail address (Microsoft sign-in sets it; dev-login does not). */
async function withEmail(prefix: string): Promise<Client & { email: string }> {
  const client = await server.signIn(unique(prefix))
  const email = `${client.user?.username}@example.com`
  await server.sql`UPDATE users SET email = ${email} WHERE id = ${client.user?.id ?? ''}`
  return Object.assign(client, { email })
}

async function jobsOf(client: Client) {
  return server.sql<{ kind: string; state: string; lastError: string | null }[]>`
    SELECT kind, state, last_error AS "lastError" FROM delivery_jobs
    WHERE user_id = ${client.user?.id ?? ''} ORDER BY id`
}

async function settled(client: Client): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await jobsOf(client)).every((j) => j.state !== 'pending')) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error('E-mail jobs still pending')
}

const mailsTo = (address: string) => sink.received().filter((m) => m.to.includes(address))

describe('e-mail through SMTP_URL', () => {
  it('sends the mentor an e-mail when a mentee applies: sender, recipient, subject, text, link', async () => {
    startWorker()
    const mentor = await withEmail('m-mentor')
    const topic = await approvedTopic(admin, mentor, { subject: unique('Mailed topic') })
    const mentee = await server.signIn(unique('m-mentee'))

    await mentee.post(`/api/topics/${topic.id}/apply`)
    await settled(mentor)

    // The approval of the topic, and the application.
    expect(
      mailsTo(mentor.email)
        .map((m) => m.headers.get('subject'))
        .sort(),
    ).toEqual(['New application', 'Topic approved'])
    const mail = mailsTo(mentor.email).find((m) => m.headers.get('subject') === 'New application')
    expect(mail?.to).toEqual([mentor.email])
    expect(mail?.from).toBe('no-reply@pairwise.example.com')
    expect(mail?.headers.get('from')).toBe('Pairwise <no-reply@pairwise.example.com>')
    expect(mail?.headers.get('subject')).toBe('New application')
    expect(mail?.headers.get('auto-submitted')).toBe('auto-generated')
    expect(mail?.text).toContain(
      `${mentee.user?.username} applied to your topic "${topic.subject}".`,
    )
    expect(mail?.text).toContain('Open Pairwise: https://pairwise.example.com/dashboard')
    expect(mail?.text).toContain('https://pairwise.example.com/settings/notifications')
    expect(mail?.html).toContain('<a href="https://pairwise.example.com/dashboard">')
    expect(await jobsOf(mentor)).toEqual([
      { kind: 'email', state: 'done', lastError: null },
      { kind: 'email', state: 'done', lastError: null },
    ])
  })

  it('escapes what users wrote in the HTML part', async () => {
    startWorker()
    const mentor = await withEmail('m-mentor')
    const subject = unique('<img src=x onerror=alert(1)> & "quotes"')
    const topic = await approvedTopic(admin, mentor, { subject })
    await (await server.signIn(unique('m-mentee'))).post(`/api/topics/${topic.id}/apply`)
    await settled(mentor)

    const mail = mailsTo(mentor.email).find((m) => m.headers.get('subject') === 'New application')
    expect(mail?.html).not.toContain('<img')
    expect(mail?.html).toContain(escapeHtml(subject))
    expect(mail?.text).toContain(subject)
  })

  it('follows the preferences: a mentee’s mails about their enrolment follow applicationStatusUpdates', async () => {
    startWorker()
    const mentor = await withEmail('m-mentor')
    const mentee = await withEmail('m-mentee')
    const topic = await approvedTopic(admin, mentor, { subject: unique('Preferred topic') })
    // The mentor wants no mail about applications; the mentee none about topics' status.
    await mentor.patch('/api/user/notification-preferences', {
      emailNotifications: {
        newApplications: false,
        topicStatusUpdates: true,
        applicationStatusUpdates: true,
        newTopicsForReview: true,
      },
    })
    await mentee.patch('/api/user/notification-preferences', {
      emailNotifications: {
        newApplications: true,
        topicStatusUpdates: false,
        applicationStatusUpdates: true,
        newTopicsForReview: true,
      },
    })
    const application = await mentee.post(`/api/topics/${topic.id}/apply`)
    await mentor.patch(`/api/applications/${application.body.id}`, { status: 'accepted' })
    await mentor.post(`/api/topics/${topic.id}/start`)
    await settled(mentee)
    await settled(mentor)

    expect(mailsTo(mentor.email).map((m) => m.headers.get('subject'))).toEqual(['Topic approved'])
    // Jobs go out side by side: their order of arrival is not fixed.
    expect(
      mailsTo(mentee.email)
        .map((m) => m.headers.get('subject'))
        .sort(),
    ).toEqual(['Application accepted', 'Topic started'])

    // Off for status updates of the enrolment: started and concluded stay in the app.
    await mentee.patch('/api/user/notification-preferences', {
      emailNotifications: {
        newApplications: true,
        topicStatusUpdates: true,
        applicationStatusUpdates: false,
        newTopicsForReview: true,
      },
    })
    await mentor.post(`/api/topics/${topic.id}/conclude`, { mentorFeedback: 'Well done' })
    await settled(mentee)
    expect(mailsTo(mentee.email)).toHaveLength(2)
  })

  it('sends administrators the new topic for review when they want it', async () => {
    startWorker()
    const reviewer = await withEmail('m-reviewer')
    await server.sql`UPDATE users SET is_admin = true WHERE id = ${reviewer.user?.id ?? ''}`
    // As it happens rather than in the daily digest (the default for this category).
    const prefs = (await reviewer.get('/api/user/notification-preferences')).body
    const res = await reviewer.patch('/api/user/notification-preferences', {
      ...prefs,
      emailDelivery: { ...prefs.emailDelivery, newTopicsForReview: 'immediate' },
    })
    expect(res.status, res.text).toBe(200)
    const mentor = await server.signIn(unique('m-proposer'))
    const subject = unique('For review')
    await mentor.post('/api/topics', { subject, maxMentees: 1, seniorityRequired: ['junior'] })
    await settled(reviewer)
    const [mail] = mailsTo(reviewer.email)
    expect(mail?.headers.get('subject')).toBe('New topic for review')
    expect(mail?.text).toContain('https://pairwise.example.com/admin/topics')
  })

  it('queues no e-mail for a user without an address', async () => {
    startWorker()
    const mentor = await server.signIn(unique('m-noaddress'))
    const topic = await approvedTopic(admin, mentor)
    await (await server.signIn(unique('m-mentee'))).post(`/api/topics/${topic.id}/apply`)
    expect(await jobsOf(mentor)).toEqual([])
  })

  it('keeps the e-mail as failed when the mail server refuses for good, without the password', async () => {
    startWorker({ SMTP_URL: sink.url.replace(':secret@', ':wrong-password@') })
    const mentor = await withEmail('m-refused')
    const topic = await approvedTopic(admin, mentor)
    await (await server.signIn(unique('m-mentee'))).post(`/api/topics/${topic.id}/apply`)
    await settled(mentor)
    const [, job] = await jobsOf(mentor)
    expect(job?.state).toBe('failed')
    expect(job?.lastError).toMatch(/mail server refused/)
    expect(job?.lastError).not.toContain('wrong-password')
    expect(mailsTo(mentor.email)).toEqual([])
  })
})

describe('e-mail without SMTP_URL', () => {
  it('logs the mail (to, subject, text) instead of sending it', async () => {
    startWorker({ SMTP_URL: undefined })
    const mentor = await withEmail('m-logged')
    const topic = await approvedTopic(admin, mentor, { subject: unique('Logged topic') })
    await (await server.signIn(unique('m-mentee'))).post(`/api/topics/${topic.id}/apply`)
    await settled(mentor)

    expect(mailsTo(mentor.email)).toEqual([])
    const line = infos.find(
      (l) => l.includes(`To: ${mentor.email}`) && l.includes('Subject: New application'),
    )
    expect(line).toContain('E-mail not sent (SMTP_URL is not set)')
    expect(line).toContain('Subject: New application')
    expect(line).toContain(`applied to your topic "${topic.subject}"`)
    expect(line).toContain('https://pairwise.example.com/dashboard')
    const logged = { kind: 'email', state: 'done', lastError: 'Logged: SMTP_URL is not set.' }
    expect(await jobsOf(mentor)).toEqual([logged, logged])
  })
})

describe('renderMail', () => {
  it('links to the root for a notification without a link', () => {
    const mail = renderMail(
      'ada@example.com',
      {
        notificationId: crypto.randomUUID(),
        kind: 'topic_approved',
        title: 'T',
        message: 'M',
        link: null,
      },
      'http://localhost:3000',
    )
    expect(mail.text).toContain('Open Pairwise: http://localhost:3000/\n')
    expect(mail).toMatchObject({ to: 'ada@example.com', subject: 'T' })
  })
})
