import { randomBytes } from 'node:crypto'
import { vi } from 'vitest'
import type { MicrosoftProfile } from '../auth/provision.ts'

type Reply = { status: number; body: unknown; type?: string }

export type FakeAccount = MicrosoftProfile & {
  /** Photo bytes and type, or undefined for "this account has no photo" (404). */
  photo?: { bytes: Uint8Array; type: string }
}

/** A request the server sent to Microsoft. */
export type SeenRequest = { url: URL; method: string; body: string; authorization: string | null }

/**
 * Microsoft's login and Graph endpoints, stood in for inside the test
 * process: it intercepts global fetch for login.microsoft.com and
 * graph.microsoft.com (the hosts @hono/oauth-providers and the photo read
 * call) and passes every other request through. Nothing reaches the network.
 */
export class FakeMicrosoft {
  readonly requests: SeenRequest[] = []
  /** Overrides the token endpoint's answer; `'network'` makes fetch fail. */
  token: Reply | 'network' | undefined
  /** Overrides Graph /me's answer. */
  me: Reply | 'network' | undefined
  /** Overrides the photo's answer. */
  photo: Reply | undefined
  private readonly codes = new Map<string, FakeAccount>()
  private readonly tokens = new Map<string, FakeAccount>()
  private readonly spy

  constructor(readonly expected: { clientId: string; clientSecret: string; redirectUri: string }) {
    const realFetch = globalThis.fetch
    this.spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const request = new Request(input, init)
      const url = new URL(request.url)
      if (url.host !== 'login.microsoft.com' && url.host !== 'graph.microsoft.com') {
        return realFetch(input, init)
      }
      const body = request.method === 'GET' ? '' : await request.text()
      this.requests.push({
        url,
        method: request.method,
        body,
        authorization: request.headers.get('authorization'),
      })
      return this.answer(url, body, request.headers.get('authorization'))
    })
  }

  /** Lets an account through Microsoft's sign-in: answers the code Microsoft would send back. */
  issueCode(account: FakeAccount): string {
    const code = `code-${randomBytes(8).toString('hex')}`
    this.codes.set(code, account)
    return code
  }

  /** The requests to one endpoint: 'token', 'me' or 'photo'. */
  seen(endpoint: 'token' | 'me' | 'photo'): SeenRequest[] {
    return this.requests.filter((r) => endpointOf(r.url) === endpoint)
  }

  restore(): void {
    this.spy.mockRestore()
  }

  private answer(url: URL, body: string, authorization: string | null): Response {
    const endpoint = endpointOf(url)
    if (endpoint === 'token') {
      if (this.token === 'network') throw new TypeError('fetch failed')
      if (this.token) return reply(this.token)
      const form = new URLSearchParams(body)
      const account = this.codes.get(form.get('code') ?? '')
      const valid =
        form.get('grant_type') === 'authorization_code' &&
        form.get('client_id') === this.expected.clientId &&
        form.get('client_secret') === this.expected.clientSecret &&
        form.get('redirect_uri') === this.expected.redirectUri
      if (!account || !valid) {
        return reply({
          status: 400,
          body: { error: 'invalid_grant', error_description: 'AADSTS70008: bad code' },
        })
      }
      // A code works once, as Microsoft's do.
      this.codes.delete(form.get('code') ?? '')
      const accessToken = `token-${randomBytes(8).toString('hex')}`
      this.tokens.set(accessToken, account)
      return reply({
        status: 200,
        body: {
          token_type: 'Bearer',
          scope: 'openid profile email User.Read',
          expires_in: 3599,
          access_token: accessToken,
          refresh_token: 'refresh',
          id_token: 'id-token',
        },
      })
    }
    const account = this.tokens.get(authorization?.replace(/^Bearer /, '') ?? '')
    if (endpoint === 'me') {
      if (this.me === 'network') throw new TypeError('fetch failed')
      if (this.me) return reply(this.me)
      if (!account) return reply(graphError(401, 'InvalidAuthenticationToken'))
      const { photo: _photo, ...profile } = account
      return reply({ status: 200, body: { '@odata.context': 'x', ...profile } })
    }
    if (endpoint === 'photo') {
      if (this.photo) return reply(this.photo)
      if (!account) return reply(graphError(401, 'InvalidAuthenticationToken'))
      if (!account.photo) return reply(graphError(404, 'ImageNotFound'))
      return new Response(Buffer.from(account.photo.bytes), {
        status: 200,
        headers: { 'content-type': account.photo.type },
      })
    }
    return reply({ status: 404, body: { error: 'unknown endpoint' } })
  }
}

function endpointOf(url: URL): 'token' | 'me' | 'photo' | 'other' {
  if (url.host === 'login.microsoft.com' && url.pathname.endsWith('/oauth2/v2.0/token')) {
    return 'token'
  }
  if (url.pathname === '/v1.0/me') return 'me'
  if (url.pathname.startsWith('/v1.0/me/photos/')) return 'photo'
  return 'other'
}

export function graphError(status: number, code: string): Reply {
  return { status, body: { error: { code, message: `${code} from the fake Graph` } } }
}

function reply({ status, body, type }: Reply): Response {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  return new Response(text, {
    status,
    headers: { 'content-type': type ?? 'application/json' },
  })
}
