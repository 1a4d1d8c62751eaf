import { request } from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { approvedTopic, signInAdmin, unique } from '../test/api.ts'
import type { Client, TestServer } from '../test/server.ts'
import { startTestServer } from '../test/server.ts'
import { chooseEncoding } from './compress.ts'

// API JSON answers of 1 KB and more go brotli or gzip by Accept-Encoding;
// small answers, event streams and CSV exports go as they are.

let server: TestServer
let admin: Client
let reader: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server)
  const mentor = await server.signIn(unique('mentor'))
  const description = `<p>${'A long description of what we will learn together. '.repeat(20)}</p>`
  for (let n = 0; n < 5; n++) await approvedTopic(admin, mentor, { description })
  reader = await server.signIn(unique('reader'))
})
afterAll(() => server?.stop())

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

/** A GET that sees the bytes on the wire (fetch would decode them). */
function raw(path: string, headers: Record<string, string>, client = reader): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}${path}`,
      { headers: { cookie: client.cookie ?? '', ...headers } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        )
      },
    )
    req.on('error', reject)
    req.end()
  })
}

const json = (body: Buffer) => JSON.parse(body.toString('utf8'))

describe('compressed API answers', () => {
  for (const path of ['/api/topics', '/api/sync/pull']) {
    it(`${path}: gzip and brotli decode to the same JSON as the plain answer`, async () => {
      const plain = await raw(path, {})
      expect(plain.status).toBe(200)
      expect(plain.headers['content-encoding']).toBeUndefined()
      expect(plain.body.length).toBeGreaterThan(1024)
      const gzip = await raw(path, { 'accept-encoding': 'gzip' })
      expect(gzip.headers['content-encoding']).toBe('gzip')
      expect(gzip.headers.vary).toMatch(/accept-encoding/i)
      expect(gzip.headers['cache-control']).toBe('no-store')
      expect(Number(gzip.headers['content-length'])).toBe(gzip.body.length)
      expect(gzip.body.length).toBeLessThan(plain.body.length / 3)
      const br = await raw(path, { 'accept-encoding': 'gzip, deflate, br' })
      expect(br.headers['content-encoding']).toBe('br')
      expect(br.body.length).toBeLessThan(plain.body.length / 3)
      if (path === '/api/sync/pull') {
        // Each pull answers a fresh cursor (it carries a time): compare the rows.
        const rows = (b: Buffer) => json(b).changes.topics
        expect(rows(gunzipSync(gzip.body))).toEqual(rows(plain.body))
        expect(rows(brotliDecompressSync(br.body))).toEqual(rows(plain.body))
      } else {
        expect(json(gunzipSync(gzip.body))).toEqual(json(plain.body))
        expect(json(brotliDecompressSync(br.body))).toEqual(json(plain.body))
      }
    })
  }

  it('follows the weights of Accept-Encoding, and leaves small answers alone', async () => {
    const gzipPreferred = await raw('/api/topics', { 'accept-encoding': 'br;q=0.5, gzip' })
    expect(gzipPreferred.headers['content-encoding']).toBe('gzip')
    const refused = await raw('/api/topics', { 'accept-encoding': 'br;q=0, gzip;q=0' })
    expect(refused.headers['content-encoding']).toBeUndefined()
    const small = await raw('/api/user', { 'accept-encoding': 'br, gzip' })
    expect(small.status).toBe(200)
    expect(small.body.length).toBeLessThan(1024)
    expect(small.headers['content-encoding']).toBeUndefined()
    expect(json(small.body).id).toBe(reader.user?.id)
  })

  it('chooses an encoding as RFC 9110 says', () => {
    expect(chooseEncoding(undefined)).toBeUndefined()
    expect(chooseEncoding('identity')).toBeUndefined()
    expect(chooseEncoding('gzip, br')).toBe('br')
    expect(chooseEncoding('*')).toBe('br')
    expect(chooseEncoding('*;q=0.1, gzip;q=0.9')).toBe('gzip')
    expect(chooseEncoding('BR;Q=0')).toBeUndefined()
  })

  it('does not compress the event stream: it still streams its first event', async () => {
    const first = await new Promise<{ headers: Raw['headers']; text: string }>(
      (resolve, reject) => {
        const req = request(
          `${server.url}/api/sync/events`,
          { headers: { cookie: reader.cookie ?? '', 'accept-encoding': 'br, gzip' } },
          (res) => {
            res.once('data', (chunk: Buffer) => {
              resolve({ headers: res.headers, text: chunk.toString('utf8') })
              req.destroy()
            })
          },
        )
        req.on('error', reject)
        req.end()
      },
    )
    expect(first.headers['content-type']).toMatch(/^text\/event-stream/)
    expect(first.headers['content-encoding']).toBeUndefined()
    expect(first.text).toMatch(/ready/)
  })

  it('does not compress the CSV export, which streams', async () => {
    const csv = await raw('/api/admin/export/topics.csv', { 'accept-encoding': 'br, gzip' }, admin)
    expect(csv.status).toBe(200)
    expect(csv.headers['content-type']).toMatch(/^text\/csv/)
    expect(csv.headers['content-encoding']).toBeUndefined()
    expect(csv.headers['transfer-encoding']).toBe('chunked')
    expect(csv.body.toString('utf8')).toMatch(/^\uFEFF/)
  })
})
