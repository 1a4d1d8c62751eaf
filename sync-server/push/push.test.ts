import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { notificationsOf, unique } from '../test/api.ts'
import type { TestServer } from '../test/server.ts'
import { type PushTestbed, startPushTestbed } from './testbed.ts'
import { type FakePushService, verifyVapid } from './testing.ts'

let bed: PushTestbed
let server: TestServer
let push: FakePushService
let subscribe: PushTestbed['subscribe']
let subscribedMentor: PushTestbed['subscribedMentor']
let settled: PushTestbed['settled']

beforeAll(async () => {
  bed = await startPushTestbed()
  ;({ server, push, subscribe, subscribedMentor, settled } = bed)
})
afterAll(async () => {
  await bed?.stop()
})

describe('push end to end', () => {
  it('a mentee applies: the mentor’s device receives the encrypted, VAPID-signed notification', async () => {
    const { mentor, topic, device } = await subscribedMentor()
    const mentee = await server.signIn(unique('push-mentee'))
    const { publicKey } = (await mentor.get('/api/push/vapid-public-key')).body

    const started = Date.now()
    expect((await mentee.post(`/api/topics/${topic.id}/apply`)).status).toBe(201)
    const [arrived] = await push.waitFor(1, device.name)
    const latency = (arrived?.at ?? 0) - started

    if (!arrived) throw new Error('no push')
    const [note] = await notificationsOf(mentor, 'new_application')
    expect(device.decrypt(arrived)).toEqual({
      title: 'New application',
      body: `${mentee.user?.username} applied to your topic "${topic.subject}".`,
      url: '/dashboard',
      // Pushes about one topic replace each other on the device.
      tag: topic.id,
      notificationId: note.id,
    })
    expect(arrived.headers['content-encoding']).toBe('aes128gcm')
    expect(arrived.headers.ttl).toBe(String(24 * 60 * 60))
    expect(arrived.headers.urgency).toBe('high')
    expect(arrived.headers.topic).toBe(topic.id.replaceAll('-', ''))
    const vapid = verifyVapid(arrived.headers.authorization)
    expect(vapid.publicKey).toBe(publicKey)
    expect(vapid.claims.aud).toBe(push.url)
    expect(vapid.claims.sub).toBe('mailto:admin@localhost')
    expect(vapid.claims.exp * 1000).toBeGreaterThan(Date.now())
    // "A mentor's phone buzzes within a second of a mentee applying."
    expect(latency).toBeLessThan(1000)
    console.info(`apply → push received: ${latency} ms`)
  })

  it('pushes to every device of the recipient, and to no one else', async () => {
    const { mentor, topic, device } = await subscribedMentor()
    const laptop = push.device(unique('mentor-laptop'))
    await subscribe(mentor, laptop)
    const mentee = await server.signIn(unique('push-mentee'))
    const menteeDevice = push.device(unique('mentee-phone'))
    await subscribe(mentee, menteeDevice)

    await mentee.post(`/api/topics/${topic.id}/apply`)
    await push.waitFor(1, device.name)
    await push.waitFor(1, laptop.name)
    await settled()

    expect(device.received()).toHaveLength(1)
    expect(laptop.received()).toHaveLength(1)
    expect(menteeDevice.received()).toHaveLength(0)
  })

  it('pushes topic events to the topic’s mentees with the topic’s URL', async () => {
    const { mentor, topic } = await subscribedMentor()
    const mentee = await server.signIn(unique('push-mentee'))
    const phone = push.device(unique('mentee-phone'))
    await subscribe(mentee, phone)
    const application = await mentee.post(`/api/topics/${topic.id}/apply`)
    await mentor.patch(`/api/applications/${application.body.id}`, { status: 'accepted' })

    const [accepted] = await push.waitFor(1, phone.name)
    if (!accepted) throw new Error('no push')
    expect(phone.decrypt(accepted)).toMatchObject({
      title: 'Application accepted',
      url: `/topics/${topic.id}`,
    })
  })

  it('removes a subscription the push service answers 410 Gone, and pushes there no more', async () => {
    const { mentor, topic, device } = await subscribedMentor()
    device.answer(410)
    await server.signIn(unique('push-mentee')).then((m) => m.post(`/api/topics/${topic.id}/apply`))
    await push.waitFor(1, device.name)
    await settled()

    const rows = await server.sql`
      SELECT 1 FROM push_subscriptions WHERE endpoint = ${device.subscription.endpoint}`
    expect(rows).toHaveLength(0)
    await server.signIn(unique('push-mentee')).then((m) => m.post(`/api/topics/${topic.id}/apply`))
    await settled()
    expect(device.received()).toHaveLength(1)
    expect(await notificationsOf(mentor, 'new_application')).toHaveLength(2)
  })

  it('removes a subscription answered 404 too', async () => {
    const { topic, device } = await subscribedMentor()
    device.answer(404)
    await server.signIn(unique('push-mentee')).then((m) => m.post(`/api/topics/${topic.id}/apply`))
    await push.waitFor(1, device.name)
    await settled()
    const rows = await server.sql`
      SELECT 1 FROM push_subscriptions WHERE endpoint = ${device.subscription.endpoint}`
    expect(rows).toHaveLength(0)
  })

  it('sends no push when the preference for the event is off, and pushes again when it is on', async () => {
    const { mentor, topic, device } = await subscribedMentor()
    const preferences = (await mentor.get('/api/user/notification-preferences')).body
    const off = {
      emailNotifications: { ...preferences.emailNotifications, newApplications: false },
    }
    expect((await mentor.patch('/api/user/notification-preferences', off)).status).toBe(200)

    await server.signIn(unique('push-mentee')).then((m) => m.post(`/api/topics/${topic.id}/apply`))
    await settled()
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(device.received()).toHaveLength(0)
    // The in-app notification is there regardless.
    expect(await notificationsOf(mentor, 'new_application')).toHaveLength(1)

    await mentor.patch('/api/user/notification-preferences', preferences)
    await server.signIn(unique('push-mentee')).then((m) => m.post(`/api/topics/${topic.id}/apply`))
    await push.waitFor(1, device.name)
  })

  it('ends a device’s pushes when its session signs out', async () => {
    const { mentor, topic, device } = await subscribedMentor()
    await mentor.get('/api/auth/logout')
    const rows = await server.sql`
      SELECT 1 FROM push_subscriptions WHERE endpoint = ${device.subscription.endpoint}`
    expect(rows).toHaveLength(0)
    await server.signIn(unique('push-mentee')).then((m) => m.post(`/api/topics/${topic.id}/apply`))
    await settled()
    expect(device.received()).toHaveLength(0)
  })
})
