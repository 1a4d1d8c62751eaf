import { Agent, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'

export type Balancer = {
  url: string
  /** Replaces the instances behind it (each an http://host:port origin). */
  setBackends: (urls: string[]) => void
  /** The instances whose /healthz answered 200 at the last check. */
  healthy: () => string[]
  close: () => Promise<void>
}

/**
 * A tiny HTTP load balancer as deployments put in front of instances:
 * round-robin over the instances whose /healthz answered 200 (checked every
 * `checkMs`), keep-alive connections to them, and a request whose connection
 * was refused (it never reached an instance) tried on the next one.
 */
export async function startBalancer(checkMs = 100): Promise<Balancer> {
  let backends: string[] = []
  let healthy: string[] = []
  let next = 0
  const agent = new Agent({ keepAlive: true, maxSockets: 64 })
  const check = async () => {
    const results = await Promise.all(
      backends.map(async (url) => {
        try {
          const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(checkMs * 5) })
          await res.arrayBuffer()
          return res.status === 200 ? url : undefined
        } catch {
          return undefined
        }
      }),
    )
    healthy = results.filter((url): url is string => url !== undefined)
  }
  const timer = setInterval(() => void check(), checkMs)

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    for (let tries = 0; tries < 5; tries++) {
      const pool = healthy.length ? healthy : backends
      const target = pool[next++ % pool.length]
      if (!target) break
      const sent = await new Promise<boolean>((resolve) => {
        const upstream = request(
          `${target}${req.url}`,
          { method: req.method, headers: req.headers, agent },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(res)
            answer.on('end', () => resolve(true))
          },
        )
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          // Refused: the request never reached the instance, so another may take it.
          if (error.code === 'ECONNREFUSED' && !res.headersSent) return resolve(false)
          if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' })
          res.end(`Bad gateway: ${error.message}`)
          resolve(true)
        })
        upstream.end(body)
      })
      if (sent) return
    }
    res.writeHead(502, { 'content-type': 'text/plain' })
    res.end('Bad gateway: no instance is up.')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setBackends: (urls) => {
      backends = urls
      void check()
    },
    healthy: () => healthy,
    close: async () => {
      clearInterval(timer)
      agent.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
