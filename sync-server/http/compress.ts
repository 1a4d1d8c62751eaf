import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { createMiddleware } from 'hono/factory'

/** Smaller answers go as they are: compressing them saves less than it costs. */
const COMPRESS_THRESHOLD_BYTES = 1024
/**
 * Levels that pay on two shared cores (decision 0034, docs/performance.md):
 * brotli 4 is about as small as gzip 9 at a fraction of its time, gzip 5
 * costs little more than gzip 1 and is clearly smaller.
 */
export const BROTLI_QUALITY = 4
export const GZIP_LEVEL = 5

const compressBrotli = promisify(brotliCompress)
const compressGzip = promisify(gzip)

/** JSON and problem+json; never an event stream or a streamed CSV export. */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i

type Encoding = 'br' | 'gzip'

/** The encoding to answer in: brotli before gzip at equal weight; none for q=0 or identity. */
export function chooseEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined
  const weights = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';')
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    weights.set(name.trim(), q === undefined ? 1 : Number(q.slice(2)) || 0)
  }
  const weight = (name: Encoding) => weights.get(name) ?? weights.get('*') ?? 0
  const [best] = (['br', 'gzip'] as const)
    .filter((name) => weight(name) > 0)
    .sort((a, b) => weight(b) - weight(a))
  return best
}

/**
 * Compresses the API's JSON answers of 1 KB and more, brotli or gzip by the
 * request's Accept-Encoding, on the thread pool (node:zlib), not on the event
 * loop. Hono's compress() streams through CompressionStream, which has no
 * brotli on Node 20 and no level to choose.
 */
export const compressJson = createMiddleware(async (c, next) => {
  await next()
  const res = c.res
  // Headers only until it compresses: reading `res.body` would turn @hono/node-server's
  // string answer into a stream, written chunk by chunk (measured: +7 ms on 600 KB).
  if (c.req.method === 'HEAD' || res.headers.has('content-encoding')) return
  if (!JSON_TYPE.test(res.headers.get('content-type') ?? '')) return
  const vary = res.headers.get('vary')
  if (!vary?.toLowerCase().includes('accept-encoding')) {
    res.headers.set('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding')
  }
  const encoding = chooseEncoding(c.req.header('accept-encoding'))
  if (!encoding) return
  const plain = Buffer.from(await res.arrayBuffer())
  let body: Buffer = plain
  if (plain.length >= COMPRESS_THRESHOLD_BYTES) {
    body =
      encoding === 'br'
        ? await compressBrotli(plain, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: plain.length,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            },
          })
        : await compressGzip(plain, { level: GZIP_LEVEL })
  }
  // The body was read: answer a new response with the same status and headers.
  c.res = new Response(new Uint8Array(body), res)
  c.res.headers.set('content-length', String(body.length))
  if (body !== plain) c.res.headers.set('content-encoding', encoding)
})
