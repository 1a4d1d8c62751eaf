import { Validator } from '@seriousme/openapi-schema-validator'
import { Document, Spectral } from '@stoplight/spectral-core'
import Parsers from '@stoplight/spectral-parsers'
import { oas } from '@stoplight/spectral-rulesets'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { approvedTopic, signInAdmin, unique } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'
import {
  type Breakage,
  invalidValue,
  type JsonSchema,
  pathText,
  validValue,
} from './schema-arbitrary.ts'

// The OpenAPI document tells the truth: every documented operation is called
// with inputs generated from its own schemas, valid and invalid, as an
// anonymous caller, a member and an administrator, and every answer's status,
// content type and body are checked against the document. The count of
// generated requests per operation and role is CONFORMANCE_RUNS (10 in
// `npm test`, more through `npm run test:openapi`).

const RUNS = Number(process.env.CONFORMANCE_RUNS ?? 10)
const SEED = Number(process.env.CONFORMANCE_SEED ?? 20261124)

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020

type Parameter = {
  name: string
  in: 'path' | 'query' | 'header'
  required?: boolean
  schema: JsonSchema
}
type Operation = {
  parameters?: Parameter[]
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> }
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>
}
type OpenApi = { paths: Record<string, Record<string, Operation>> }
/**
 * Who calls: no one, a member who owns nothing, an administrator, or the
 * owner (the mentor of the known topic, who may edit it and decide its
 * application, so the checks behind authorization are reached too).
 */
type Role = 'anonymous' | 'member' | 'administrator' | 'owner'

let server: TestServer
let doc: OpenApi
let ajv: Ajv2020
/** Ids that exist, for path parameters: the generated ones are mostly unknown. */
let known: { topic: string; application: string; username: string; userId: string }

beforeAll(async () => {
  server = await startTestServer()
  const admin = await signInAdmin(server, 'openapi-admin')
  const mentor = await server.signIn('openapi-mentor')
  const mentee = await server.signIn('openapi-mentee')
  const topic = await approvedTopic(admin, mentor)
  const applied = await mentee.post(`/api/topics/${topic.id}/apply`)
  expect(applied.status).toBe(201)
  known = {
    topic: topic.id,
    application: applied.body.id,
    username: mentor.user?.username ?? '',
    userId: mentor.user?.id ?? '',
  }
  doc = (await server.anonymous().get('/api/openapi.json')).body
  ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }))
  ajv.addSchema(doc as object, 'openapi')
}, 60_000)
afterAll(() => server?.stop())

const pointer = (...parts: string[]) =>
  `openapi#/${parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`

/** A value a schema accepts for this parameter, as the wire carries it (text). */
function paramCheck(schema: JsonSchema) {
  const validate = addFormats(new Ajv2020({ strict: false, coerceTypes: true })).compile({
    type: 'object',
    properties: { v: schema },
  })
  return (text: string) => validate({ v: text })
}

/** A path parameter: mostly an id that exists, sometimes any text. */
function pathValue(path: string, name: string): fc.Arbitrary<string> {
  const existing =
    name === 'username'
      ? known.username
      : name === 'userId' || path.startsWith('/api/admin/users/')
        ? known.userId
        : path.startsWith('/api/applications/')
          ? known.application
          : path.startsWith('/api/topics/')
            ? known.topic
            : undefined
  const any = fc.oneof(fc.uuid(), pathText)
  return existing ? fc.oneof({ weight: 3, arbitrary: fc.constant(existing) }, any) : any
}

type Call = {
  method: string
  url: string
  headers: Record<string, string>
  body: string | undefined
  /** What makes the request invalid, or undefined for a valid one. */
  broken: string | undefined
}

/**
 * Parameters only the server's own answers make valid (a sync cursor is
 * issued to one user): left out of valid requests, still broken in invalid ones.
 */
const ISSUED_BY_SERVER = new Set(['query:cursor'])

/** Requests for one operation: `valid` ones by its schemas, or ones with one thing broken. */
function calls(path: string, method: string, op: Operation, valid: boolean): fc.Arbitrary<Call> {
  const params = op.parameters ?? []
  const parts: Record<string, fc.Arbitrary<unknown>> = {}
  for (const p of params) {
    // A header carries visible ASCII only: a client cannot send anything else.
    const schema = p.in === 'header' ? { ...p.schema, pattern: '^[\\x21-\\x7e]+$' } : p.schema
    const at = `${p.in}:${p.name}`
    parts[at] = ISSUED_BY_SERVER.has(at)
      ? fc.constant(undefined)
      : p.in === 'path'
        ? pathValue(path, p.name)
        : p.required
          ? validValue(schema).map(String)
          : fc.option(validValue(schema).map(String), { nil: undefined })
  }
  const json = op.requestBody?.content['application/json']?.schema
  if (json) parts.body = validValue(json)
  const breakages: fc.Arbitrary<{ at: string; breakage: Breakage }>[] = []
  if (!valid) {
    for (const p of params) {
      if (p.in === 'path') continue
      const broken = invalidValue(p.schema)
      const accepts = paramCheck(p.schema)
      if (!broken) continue
      // On the wire a parameter is text: only breakages that stay wrong as text count
      // (a number for a text parameter does not), and some parameters have none.
      const asText = fc
        .sample(broken, { numRuns: 20, seed: SEED })
        .filter((b) => !accepts(String(b.value)))
      if (asText.length === 0) continue
      breakages.push(
        fc.constantFrom(...asText).map((breakage) => ({ at: `${p.in}:${p.name}`, breakage })),
      )
    }
    const broken = json ? invalidValue(json) : undefined
    if (broken) breakages.push(broken.map((breakage) => ({ at: 'body', breakage })))
  }
  const breaking = breakages.length > 0 ? fc.oneof(...breakages) : fc.constant(undefined)
  return fc.tuple(fc.record(parts), breaking).map(([values, broke]) => {
    if (broke) values[broke.at] = broke.breakage.value
    let url = path
    const query = new URLSearchParams()
    const headers: Record<string, string> = { accept: 'application/json, */*' }
    for (const p of params) {
      const value = values[`${p.in}:${p.name}`]
      if (value === undefined) continue
      if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(value)))
      if (p.in === 'query') query.set(p.name, String(value))
      if (p.in === 'header') headers[p.name] = String(value)
    }
    if (query.size > 0) url += `?${query}`
    // A fresh key per request: the same key with another body is a documented 422.
    // (Generated keys repeat between operations: the seed is the same.) A broken key stays.
    if (
      params.some((p) => p.name === 'Idempotency-Key') &&
      broke?.at !== 'header:Idempotency-Key'
    ) {
      headers['Idempotency-Key'] = crypto.randomUUID()
    }
    let body: string | undefined
    if (json && (values.body !== undefined || broke?.at === 'body')) {
      body = JSON.stringify(values.body)
      headers['content-type'] = 'application/json'
    }
    return {
      method: method.toUpperCase(),
      url,
      headers,
      body,
      broken: broke ? `${broke.at}: ${broke.breakage.how}` : undefined,
    }
  })
}

/** Sends the call as `client` would (its cookies), without following redirects. */
async function send(client: Client | undefined, call: Call) {
  const headers = { ...call.headers }
  if (client?.cookie) headers.cookie = client.cookie
  const res = await fetch(server.url + call.url, {
    method: call.method,
    headers,
    body: call.body,
    redirect: 'manual',
  })
  const type = (res.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? ''
  // The event stream does not end: its status and type are what it answers.
  if (type === 'text/event-stream') {
    await res.body?.cancel()
    return { status: res.status, type, text: '' }
  }
  return { status: res.status, type, text: await res.text() }
}

/** What is wrong with an answer, by the document; empty when nothing is. */
function check(
  path: string,
  method: string,
  op: Operation,
  call: Call,
  answer: { status: number; type: string; text: string },
): string[] {
  const problems: string[] = []
  const documented = op.responses[String(answer.status)] ?? op.responses.default
  if (!documented) return [`status ${answer.status} is not documented`]
  if (answer.status >= 500) problems.push(`answered ${answer.status}`)
  if (call.broken === undefined && [400, 413, 422].includes(answer.status)) {
    problems.push(`a request valid by the document was refused with ${answer.status}`)
  }
  if (call.broken !== undefined && answer.status < 400) {
    problems.push(`an invalid request (${call.broken}) was accepted with ${answer.status}`)
  }
  const content = documented.content
  if (!content) {
    if (answer.text !== '' && answer.status !== 302) {
      problems.push(`status ${answer.status} has no documented body but answered ${answer.type}`)
    }
    return problems
  }
  const media = content[answer.type]
  if (!media) {
    return [
      ...problems,
      `status ${answer.status} answered ${answer.type || 'no content type'}, documented: ${Object.keys(content).join(', ')}`,
    ]
  }
  if (answer.type.endsWith('json') && media.schema) {
    const validate = ajv.getSchema(
      pointer(
        'paths',
        path,
        method,
        'responses',
        String(answer.status),
        'content',
        answer.type,
        'schema',
      ),
    )
    let body: unknown
    try {
      body = JSON.parse(answer.text)
    } catch {
      return [...problems, `status ${answer.status} body is not JSON`]
    }
    if (validate && !validate(body)) {
      const first = validate.errors?.[0]
      problems.push(
        `status ${answer.status} body does not match its schema: ${first?.instancePath || '/'} ${first?.message}`,
      )
    }
  }
  return problems
}

async function clientFor(role: Role): Promise<Client | undefined> {
  if (role === 'anonymous') return undefined
  if (role === 'owner') return server.signIn(known.username)
  return role === 'administrator'
    ? signInAdmin(server, unique('openapi-admin'))
    : server.signIn(unique('openapi-member'))
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc as Parameters<Validator['validate']>[0])
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
  })

  it("has no error or warning by Spectral's spectral:oas rules", async () => {
    const spectral = new Spectral()
    spectral.setRuleset({
      extends: [[oas, 'recommended']],
      // Each company runs its own Pairwise: who to contact about its API is theirs to say.
      rules: { 'info-contact': 'off' },
    } as never)
    const findings = await spectral.run(new Document(JSON.stringify(doc), Parsers.Json))
    // Severity 0 is an error, 1 a warning (2 and 3 are information and hints).
    const serious = findings
      .filter((f) => f.severity <= 1)
      .map((f) => `${f.code} at ${f.path.join('.')}: ${f.message}`)
    expect(serious).toEqual([])
  })

  it('answers a method a path does not have with 405 and the methods it has', async () => {
    const wrong: string[] = []
    for (const [path, ops] of Object.entries(doc.paths)) {
      const url = path.replace(/\{\w+\}/g, known.topic)
      const res = await fetch(server.url + url, { method: 'PUT', redirect: 'manual' })
      await res.body?.cancel()
      const allowed = Object.keys(ops).map((m) => m.toUpperCase())
      const allow = (res.headers.get('allow') ?? '').split(',').map((m) => m.trim())
      if (res.status !== 405 || !allowed.every((m) => allow.includes(m))) {
        wrong.push(`PUT ${path}: ${res.status}, Allow: ${res.headers.get('allow')}`)
      }
    }
    expect(wrong).toEqual([])
  })

  const roles: Role[] = ['anonymous', 'member', 'administrator', 'owner']
  for (const role of roles) {
    const who =
      role === 'owner'
        ? 'the mentor who owns the topic'
        : `${role === 'member' ? 'a' : 'an'} ${role}`
    it(`tells the truth about every operation, called as ${who}`, async () => {
      const failures = new Map<string, string>()
      let sent = 0
      for (const [path, ops] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(ops)) {
          // The sign-out calls end the caller's own session: a fresh caller for each operation.
          const client = await clientFor(role)
          for (const valid of [true, false]) {
            const samples = fc.sample(calls(path, method, op, valid), { numRuns: RUNS, seed: SEED })
            for (const call of samples) {
              const answer = await send(client, call)
              sent += 1
              for (const problem of check(path, method, op, call, answer)) {
                const key = `${method.toUpperCase()} ${path}: ${problem}`
                if (!failures.has(key))
                  failures.set(key, `${call.method} ${call.url} ${call.body ?? ''}`)
              }
            }
          }
        }
      }
      expect(sent).toBeGreaterThan(Object.keys(doc.paths).length)
      expect([...failures].map(([problem, example]) => `${problem}\n    e.g. ${example}`)).toEqual(
        [],
      )
    }, 300_000)
  }
})
