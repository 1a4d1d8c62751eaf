import { connect, createServer, type Server, type Socket } from 'node:net'

/**
 * A TCP proxy in front of the test server that can drop the network: while
 * it is "down", every connection (open ones too, such as the event stream)
 * is cut and new ones are reset, which a browser sees as a lost network.
 * Firefox and WebKit have no offline switch over WebDriver, and the server
 * under test is shared with other files, so this stands in for "stop the
 * server and start it again". The browser keeps the proxy's origin throughout.
 */
export class SwitchableProxy {
  private server: Server | null = null
  private readonly sockets = new Set<Socket>()
  private down = false
  private port = 0

  constructor(private readonly target: URL) {}

  /** Listens on a free loopback port; answers the proxy's base URL. */
  async start(): Promise<string> {
    const server = createServer((client) => this.accept(client))
    this.server = server
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => resolve())
    })
    const address = server.address()
    this.port = typeof address === 'object' && address ? address.port : 0
    return `http://127.0.0.1:${this.port}`
  }

  /** The network is gone: what is open is cut, what comes is reset. */
  goDown(): void {
    this.down = true
    for (const socket of this.sockets) socket.destroy()
    this.sockets.clear()
  }

  goUp(): void {
    this.down = false
  }

  async stop(): Promise<void> {
    this.goDown()
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    )
  }

  private accept(client: Socket): void {
    if (this.down) {
      client.resetAndDestroy()
      return
    }
    const upstream = connect(Number(this.target.port), this.target.hostname)
    for (const socket of [client, upstream]) {
      this.sockets.add(socket)
      socket.on('close', () => this.sockets.delete(socket))
      socket.on('error', () => {
        client.destroy()
        upstream.destroy()
      })
    }
    client.pipe(upstream)
    upstream.pipe(client)
  }
}
