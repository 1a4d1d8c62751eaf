import type { AddressInfo } from 'node:net'
import { connect, createServer, type Socket } from 'node:net'

export type TcpProxy = {
  port: number
  /** Cuts every connection and refuses new ones, as a database that went away. */
  cut: () => void
  /**
   * Silences the database instead, as a failover that moves its address does: the
   * server side of every connection ends (its sessions and locks go), but the app's
   * side stays open and hears nothing more, ever; new connections are accepted and
   * never answered. Nothing is reset, so only a timeout can tell.
   */
  silence: () => void
  /** Lets new connections through again (silenced ones stay silent). */
  restore: () => void
  /** How many connections the proxy has accepted so far. */
  accepted: () => number
  close: () => Promise<void>
}

export type TcpProxyOptions = {
  /**
   * Sees each chunk a client sends before it goes on to `host:port`; answering
   * true keeps the chunk back (the hook has answered or ended the client).
   */
  fromClient?: (data: Buffer, client: Socket, upstream: Socket) => boolean
}

/**
 * A loopback TCP proxy to `host:port` that a test can cut: the database seen
 * through it disappears (every connection reset, new ones reset at once) and
 * comes back, as in a failover or a restart, without touching the real
 * server other test runs share.
 */
export async function startTcpProxy(
  host: string,
  port: number,
  options: TcpProxyOptions = {},
): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  /** Each open client connection and its connection to the database. */
  const pairs = new Map<Socket, Socket>()
  /** Connections that were silenced: open, never answered, drained of what they send. */
  const silent = new Set<Socket>()
  let down = false
  let silenced = false
  let accepted = 0
  const hush = (client: Socket) => {
    silent.add(client)
    client.removeAllListeners('data')
    client.unpipe()
    client.on('data', () => {})
    client.on('error', () => silent.delete(client)).on('close', () => silent.delete(client))
  }
  const server = createServer((client) => {
    accepted += 1
    if (down) return void client.resetAndDestroy()
    if (silenced) return void hush(client)
    const upstream = connect(port, host)
    sockets.add(client)
    sockets.add(upstream)
    pairs.set(client, upstream)
    const end = () => {
      if (silent.has(client)) return
      client.destroy()
      upstream.destroy()
      sockets.delete(client)
      sockets.delete(upstream)
      pairs.delete(client)
    }
    client.on('error', end).on('close', end)
    upstream.on('error', end).on('close', end)
    const { fromClient } = options
    if (fromClient) {
      client.on('data', (data) => {
        if (!fromClient(data, client, upstream)) upstream.write(data)
      })
    } else {
      client.pipe(upstream)
    }
    upstream.pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    cut: () => {
      down = true
      for (const socket of sockets) socket.resetAndDestroy()
      sockets.clear()
      pairs.clear()
    },
    silence: () => {
      silenced = true
      for (const [client, upstream] of pairs) {
        upstream.unpipe(client)
        hush(client)
        upstream.destroy()
      }
      pairs.clear()
      sockets.clear()
    },
    restore: () => {
      down = false
      silenced = false
    },
    accepted: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of [...sockets, ...silent]) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
