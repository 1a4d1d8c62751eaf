import { expect } from 'vitest'
import { type DeliveryWorker, startDeliveryWorker } from '../delivery/worker.ts'
import { approvedTopic, signInAdmin, unique } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'
import { type FakeDevice, type FakePushService, startFakePushService } from './testing.ts'

/** A test server with a delivery worker and a fake push service, and helpers over them. */
export type PushTestbed = {
  server: TestServer
  push: FakePushService
  admin: Client
  /** Registers the device for `client`, expecting `expected` (201 new, 200 known). */
  subscribe: (client: Client, device: FakeDevice, expected?: number) => ReturnType<Client['post']>
  /** A mentor with an approved topic, subscribed on a fresh device. */
  subscribedMentor: () => Promise<{
    mentor: Client
    topic: { id: string; subject: string }
    device: FakeDevice
  }>
  /** Resolves once no delivery is pending: whatever was queued has been settled. */
  settled: () => Promise<void>
  stop: () => Promise<void>
}

export async function startPushTestbed(): Promise<PushTestbed> {
  const server = await startTestServer()
  const push = await startFakePushService()
  const quiet = { info: () => {}, warn: () => {} }
  const worker: DeliveryWorker = startDeliveryWorker(server.sql, server.config, {
    log: quiet,
    pollMs: 200,
  })
  const admin = await signInAdmin(server, 'push-admin')
  const subscribe = async (client: Client, device: FakeDevice, expected = 201) => {
    const res = await client.post('/api/push/subscriptions', device.subscription)
    expect(res.status, res.text).toBe(expected)
    return res
  }
  return {
    server,
    push,
    admin,
    subscribe,
    subscribedMentor: async () => {
      const mentor = await server.signIn(unique('push-mentor'))
      const topic = await approvedTopic(admin, mentor, { subject: unique('Pushed topic') })
      const device = push.device(unique('mentor-phone'))
      await subscribe(mentor, device)
      return { mentor, topic, device }
    },
    settled: async () => {
      for (let i = 0; i < 100; i++) {
        const [row] = await server.sql<{ n: number }[]>`
          SELECT count(*)::int AS n FROM delivery_jobs WHERE state = 'pending'`
        if (row?.n === 0) return
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      throw new Error('Deliveries are still pending.')
    },
    stop: async () => {
      await worker.stop()
      await push.close()
      await server.stop()
    },
  }
}
