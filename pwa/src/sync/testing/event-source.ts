import type { Client } from '../../../../sync-server/test/server.ts'
import {
  EVENT_SOURCE_CLOSED,
  type EventSourceFactory,
  type EventSourceLike,
} from '../engine/environment.ts'

/**
 * A small EventSource over fetch with the test Client's cookie (Node has no
 * EventSource with credentials): named events, and `error` when it ends.
 */
export function fetchEventSource(client: Client): EventSourceFactory {
  return (url) => {
    const controller = new AbortController()
    const listeners = new Map<string, Set<() => void>>()
    const emit = (type: string) => {
      for (const listener of listeners.get(type) ?? []) listener()
    }
    const source: EventSourceLike & { readyState: number } = {
      readyState: 0,
      addEventListener: (type, listener) => {
        const set = listeners.get(type) ?? new Set()
        set.add(listener)
        listeners.set(type, set)
      },
      close: () => {
        source.readyState = EVENT_SOURCE_CLOSED
        controller.abort()
      },
    }
    void (async () => {
      try {
        const res = await fetch(url, {
          headers: {
            accept: 'text/event-stream',
            ...(client.cookie ? { cookie: client.cookie } : {}),
          },
          signal: controller.signal,
        })
        if (res.status !== 200 || !res.body) return
        source.readyState = 1
        const decoder = new TextDecoder()
        let buffer = ''
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true })
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end)
            buffer = buffer.slice(end + 2)
            if (!block.startsWith(':')) emit(/^event: (.*)$/m.exec(block)?.[1] ?? 'message')
          }
        }
      } catch {
        // Closed.
      } finally {
        if (source.readyState !== EVENT_SOURCE_CLOSED) {
          source.readyState = EVENT_SOURCE_CLOSED
          emit('error')
        }
      }
    })()
    return source
  }
}
