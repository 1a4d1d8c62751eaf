import { describe, expect, it, vi } from 'vitest'
import { handlePush } from './sw-push.ts'

// The service worker's push handler (issue 18): no system notification while
// the app is in use on this device, but always the poke that updates the bell;
// otherwise the notification, replacing the last one about the same topic.

type FakeWindow = {
  visibilityState: string
  focused: boolean
  postMessage: ReturnType<typeof vi.fn>
}

function fakeWorker(windows: Omit<FakeWindow, 'postMessage'>[]) {
  const clients: FakeWindow[] = windows.map((w) => ({ ...w, postMessage: vi.fn() }))
  const showNotification = vi.fn(async (_title: string, _options: NotificationOptions) => {})
  const sw = {
    clients: { matchAll: vi.fn(async () => clients) },
    registration: { showNotification },
  } as unknown as ServiceWorkerGlobalScope
  return { sw, clients, showNotification }
}

function pushOf(payload: unknown): PushEvent {
  return {
    data: { json: () => payload, text: () => JSON.stringify(payload) },
  } as unknown as PushEvent
}

const payload = {
  title: 'An application is waiting',
  body: 'Sam applied three days ago.',
  url: '/dashboard?application=a1',
  tag: '7d9c1f3e-2b0a-4c55-9e61-3f1f3d7a0b11',
}

describe('handlePush', () => {
  it('shows nothing while a window of the app is visible and focused, but pokes every window', async () => {
    const { sw, clients, showNotification } = fakeWorker([
      { visibilityState: 'visible', focused: true },
      { visibilityState: 'hidden', focused: false },
    ])
    await handlePush(sw, pushOf(payload))
    expect(showNotification).not.toHaveBeenCalled()
    for (const client of clients)
      expect(client.postMessage).toHaveBeenCalledWith({ type: 'sync-poke' })
  })

  it('shows the notification, tagged by topic and alerting again, when no window is in use', async () => {
    const { sw, clients, showNotification } = fakeWorker([
      // Visible but not focused (another app has the keyboard), and a background tab.
      { visibilityState: 'visible', focused: false },
      { visibilityState: 'hidden', focused: false },
    ])
    await handlePush(sw, pushOf(payload))
    expect(showNotification).toHaveBeenCalledWith(payload.title, {
      body: payload.body,
      icon: '/icon-192.png',
      badge: '/badge-96.png',
      data: { url: payload.url },
      tag: payload.tag,
      renotify: true,
    })
    for (const client of clients)
      expect(client.postMessage).toHaveBeenCalledWith({ type: 'sync-poke' })
  })

  it('shows it with no window open, without a tag (nor renotify) when the push has none', async () => {
    const { sw, showNotification } = fakeWorker([])
    await handlePush(sw, pushOf({ title: 'Hello', body: 'World', url: '/topics' }))
    expect(showNotification).toHaveBeenCalledWith('Hello', {
      body: 'World',
      icon: '/icon-192.png',
      badge: '/badge-96.png',
      data: { url: '/topics' },
    })
  })

  it('never sends the person off the site', async () => {
    const { sw, showNotification } = fakeWorker([])
    await handlePush(sw, pushOf({ ...payload, url: 'https://example.com/' }))
    expect(showNotification.mock.calls[0]?.[1]).toMatchObject({ data: { url: '/' } })
  })
})
