import type { AddressInfo } from 'node:net'
import { connect, createServer, type Socket } from 'node:net'

export type TcpProxy = {
  port: number
  /** Cuts every connection and refuses new ones, as a database that went away. */
  cut: () => void
  /** Lets connections through again. */
  restore: () => void
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
  let down = false
  const server = createServer((client) => {
    if (down) return void client.resetAndDestroy()
    const upstream = connect(port, host)
    sockets.add(client)
    sockets.add(upstream)
    const end = () => {
      client.destroy()
      upstream.destroy()
      sockets.delete(client)
      sockets.delete(upstream)
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
    },
    restore: () => {
      down = false
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
