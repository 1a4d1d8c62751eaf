import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  type ECDH,
  randomBytes,
  verify,
} from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { PushPayload } from '../../shared/push.ts'

// A push service on a loopback port for tests: it records what the server
// posts and decrypts it with the device's keys (RFC 8291), as a browser would.

type ReceivedPush = {
  device: string
  headers: IncomingMessage['headers']
  body: Buffer
  at: number
}

/** How the fake service answers a device: a status, or never (the request hangs). */
type Answer = number | 'hang'

export type FakeDevice = {
  name: string
  /** PushSubscription.toJSON() of this device. */
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } }
  /** What arrived for this device, oldest first. */
  received: () => ReceivedPush[]
  /** The payload of a push, decrypted with this device's keys. */
  decrypt: (push: ReceivedPush) => PushPayload
  /** Answers the next requests with these, in order; then 201. */
  answer: (...answers: Answer[]) => void
}

export type FakePushService = {
  url: string
  device: (name: string) => FakeDevice
  /** Every push that arrived, oldest first. */
  received: () => ReceivedPush[]
  /** Resolves once `count` pushes arrived (in total, or for one device). */
  waitFor: (count: number, device?: string, timeoutMs?: number) => Promise<ReceivedPush[]>
  close: () => Promise<void>
}

/** Starts the fake push service on 127.0.0.1. */
export async function startFakePushService(): Promise<FakePushService> {
  const received: ReceivedPush[] = []
  const answers = new Map<string, Answer[]>()
  const hanging = new Set<ServerResponse>()
  const waiters = new Set<() => void>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const device = req.url?.split('/').at(-1) ?? ''
      received.push({ device, headers: req.headers, body: Buffer.concat(chunks), at: Date.now() })
      for (const waiter of waiters) waiter()
      const answer = answers.get(device)?.shift() ?? 201
      if (answer === 'hang') {
        hanging.add(res)
        res.on('close', () => hanging.delete(res))
        return
      }
      res.writeHead(answer).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const waitFor = (count: number, device?: string, timeoutMs = 5_000) => {
    const matching = () => received.filter((r) => device === undefined || r.device === device)
    return new Promise<ReceivedPush[]>((resolve, reject) => {
      const check = () => {
        if (matching().length < count) return
        cleanup()
        resolve(matching())
      }
      const timer = setTimeout(() => {
        cleanup()
        reject(new Error(`${matching().length} of ${count} pushes arrived for ${device ?? 'all'}`))
      }, timeoutMs)
      const cleanup = () => {
        clearTimeout(timer)
        waiters.delete(check)
      }
      waiters.add(check)
      check()
    })
  }

  return {
    url,
    received: () => [...received],
    waitFor,
    device: (name) => {
      const ecdh = createECDH('prime256v1')
      ecdh.generateKeys()
      const auth = randomBytes(16)
      return {
        name,
        subscription: {
          endpoint: `${url}/push/${name}`,
          expirationTime: null,
          keys: { p256dh: ecdh.getPublicKey('base64url'), auth: auth.toString('base64url') },
        },
        received: () => received.filter((r) => r.device === name),
        decrypt: (push) => JSON.parse(decryptAes128gcm(push.body, ecdh, auth).toString('utf8')),
        answer: (...list) => answers.set(name, list),
      }
    },
    close: async () => {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

const hmac = (key: Buffer, ...data: (Buffer | string)[]) => {
  const h = createHmac('sha256', key)
  for (const d of data) h.update(d)
  return h.digest()
}

/**
 * Decrypts a Web Push message body (RFC 8291 keys, RFC 8188 aes128gcm, one
 * record) with the device's ECDH key pair and auth secret.
 */
function decryptAes128gcm(body: Buffer, device: ECDH, authSecret: Buffer): Buffer {
  const salt = body.subarray(0, 16)
  const idLength = body.readUInt8(20)
  const serverKey = body.subarray(21, 21 + idLength)
  const record = body.subarray(21 + idLength)
  const shared = device.computeSecret(serverKey)
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), device.getPublicKey(), serverKey])
  const ikm = hmac(hmac(authSecret, shared), keyInfo, Buffer.from([1]))
  const prk = hmac(salt, ikm)
  const cek = hmac(prk, 'Content-Encoding: aes128gcm\0', Buffer.from([1])).subarray(0, 16)
  const nonce = hmac(prk, 'Content-Encoding: nonce\0', Buffer.from([1])).subarray(0, 12)
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce)
  decipher.setAuthTag(record.subarray(record.length - 16))
  const padded = Buffer.concat([
    decipher.update(record.subarray(0, record.length - 16)),
    decipher.final(),
  ])
  // The last record ends with the delimiter 2, then zero padding.
  let end = padded.length - 1
  while (end >= 0 && padded[end] === 0) end -= 1
  if (padded[end] !== 2) throw new Error('The push record has no final-record delimiter.')
  return padded.subarray(0, end)
}

/**
 * Checks a VAPID Authorization header (RFC 8292): `vapid t=<ES256 JWT>,
 * k=<public key>`, signed by that key. Answers the key and the JWT claims.
 */
export function verifyVapid(authorization: string | undefined): {
  publicKey: string
  claims: { aud: string; exp: number; sub: string }
} {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? '')
  if (!match?.[1] || !match[2]) throw new Error(`Not a VAPID header: ${authorization}`)
  const [header = '', claims = '', signature = ''] = match[1].split('.')
  const point = Buffer.from(match[2], 'base64url')
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  })
  const valid = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  )
  if (!valid) throw new Error('The VAPID signature does not verify.')
  if (JSON.parse(Buffer.from(header, 'base64url').toString()).alg !== 'ES256') {
    throw new Error('The VAPID JWT is not ES256.')
  }
  return { publicKey: match[2], claims: JSON.parse(Buffer.from(claims, 'base64url').toString()) }
}
