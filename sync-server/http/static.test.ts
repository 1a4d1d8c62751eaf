import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../test/server.ts'

// The built app as browsers get it: hashed assets precompressed at build time
// (brotli, else gzip, else plain, as the browser accepts), cached for a year;
// other files compressed on the fly and revalidated; index.html for every
// client-side route.

let dir: string
let server: TestServer
const SCRIPT = `export const words = ${JSON.stringify('mentorship '.repeat(400))}\n`

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pairwise-static-'))
  await mkdir(join(dir, 'assets'))
  await writeFile(
    join(dir, 'index.html'),
    `<!doctype html><title>Pairwise</title>${' '.repeat(2000)}`,
  )
  await writeFile(join(dir, 'assets', 'app-abc123.js'), SCRIPT)
  await writeFile(join(dir, 'assets', 'app-abc123.js.br'), brotliCompressSync(SCRIPT))
  await writeFile(join(dir, 'assets', 'app-abc123.js.gz'), gzipSync(SCRIPT))
  await writeFile(join(dir, 'sw.js'), `self.words = ${JSON.stringify('x '.repeat(2000))}\n`)
  server = await startTestServer({ STATIC_DIR: dir })
})
afterAll(async () => {
  await server?.stop()
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** A GET with this Accept-Encoding, the body left as sent (not decoded). */
async function raw(path: string, acceptEncoding: string) {
  const res = await fetch(server.url + path, { headers: { 'accept-encoding': acceptEncoding } })
  // Node's fetch decodes the body: the length header and the decoded text tell what was sent.
  return {
    status: res.status,
    encoding: res.headers.get('content-encoding'),
    length: Number(res.headers.get('content-length')),
    cache: res.headers.get('cache-control'),
    vary: res.headers.get('vary'),
    type: res.headers.get('content-type'),
    text: await res.text(),
  }
}

describe('the built app', () => {
  it('sends a hashed asset as the precompressed brotli or gzip file, cached for a year', async () => {
    const br = await raw('/assets/app-abc123.js', 'gzip, deflate, br')
    expect(br).toMatchObject({ status: 200, encoding: 'br', text: SCRIPT })
    expect(br.length).toBe(brotliCompressSync(SCRIPT).length)
    expect(br.cache).toBe('public, max-age=31536000, immutable')
    expect(br.vary).toMatch(/accept-encoding/i)
    expect(br.type).toMatch(/javascript/)

    const gz = await raw('/assets/app-abc123.js', 'gzip')
    expect(gz).toMatchObject({ status: 200, encoding: 'gzip', text: SCRIPT })
    expect(gz.length).toBe(gzipSync(SCRIPT).length)

    const plain = await raw('/assets/app-abc123.js', 'identity')
    expect(plain).toMatchObject({ status: 200, encoding: null, text: SCRIPT })
    expect(plain.length).toBe(Buffer.byteLength(SCRIPT))
  })

  it('compresses other files on the fly and has them revalidated', async () => {
    const sw = await raw('/sw.js', 'gzip, br')
    expect(sw).toMatchObject({ status: 200, encoding: 'gzip', cache: 'no-cache' })
    const route = await raw('/topics/some-id', 'gzip')
    expect(route).toMatchObject({ status: 200, encoding: 'gzip', cache: 'no-cache' })
    expect(route.text).toContain('<title>Pairwise</title>')
  })
})
