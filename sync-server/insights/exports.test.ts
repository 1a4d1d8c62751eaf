import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { approvedTopic, expectProblem, signInAdmin } from '../test/api.ts'
import { type Client, startTestServer, type TestServer } from '../test/server.ts'

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server, 'export-admin')
})
afterAll(async () => {
  await server?.stop()
})

/** The raw bytes of an export, and its rows as a spreadsheet would read them. */
async function download(client: Client, file: string) {
  const res = await fetch(`${server.url}/api/admin/export/${file}`, {
    headers: client.cookie ? { cookie: client.cookie } : {},
  })
  const bytes = new Uint8Array(await res.arrayBuffer())
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
  return { res, bytes, text }
}

describe('GET /api/admin/export/*.csv', () => {
  it('is for administrators only', async () => {
    expectProblem(await server.anonymous().get('/api/admin/export/users.csv'), 401)
    const member = await server.signIn('export-member')
    expectProblem(await member.get('/api/admin/export/topics.csv'), 403)
    expectProblem(await admin.get('/api/admin/export/sessions.csv'), 404)
  })

  it('writes RFC 4180 CSV with a header row and a UTF-8 byte order mark', async () => {
    const mentor = await server.signIn('export-mentor')
    const name = 'Zoë "Zed" Ängström, PhD'
    await server.sql`UPDATE users SET full_name = ${name} WHERE id = ${mentor.user?.id ?? ''}`
    const { res, bytes, text } = await download(admin, 'users.csv')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/)
    expect(res.headers.get('content-disposition')).toMatch(
      /attachment; filename="pairwise-users-\d{4}-\d{2}-\d{2}\.csv"/,
    )
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    expect(text.split('\r\n')[0]).toBe(
      '\uFEFF"id","username","full_name","email","seniority","interests","is_admin","created_at"',
    )
    const rows = parse(text, { bom: true, columns: true }) as Record<string, string>[]
    const zed = rows.find((r) => r.username === 'export-mentor')
    expect(zed?.full_name).toBe('Zoë "Zed" Ängström, PhD')
    expect(rows.find((r) => r.username === 'export-admin')?.is_admin).toBe('true')
  })

  it('neutralises cells a spreadsheet would run as a formula', async () => {
    const mentor = await server.signIn('formula-mentor')
    // Subjects are trimmed, so tab and carriage return are covered in shared/csv.test.ts.
    const payloads = ['=HYPERLINK("http://evil.example","x")', '+1+1', '-2+3', '@SUM(A1)']
    for (const subject of payloads) await approvedTopic(admin, mentor, { subject })
    const { text } = await download(admin, 'topics.csv')
    const rows = parse(text, { bom: true, columns: true }) as Record<string, string>[]
    const subjects = rows.map((r) => r.subject)
    for (const payload of payloads) expect(subjects).toContain(`'${payload}`)
    expect(subjects.filter((s) => s !== undefined && /^[=+\-@]/.test(s))).toEqual([])
  })

  it('exports every row of each table', async () => {
    const mentee = await server.signIn('export-mentee')
    const mentor = await server.signIn('export-mentor-2')
    const topic = await approvedTopic(admin, mentor)
    expect((await mentee.post(`/api/topics/${topic.id}/apply`, {})).status).toBe(201)
    for (const [file, table] of [
      ['topics.csv', 'topics'],
      ['applications.csv', 'applications'],
      ['users.csv', 'users'],
      ['feedback.csv', 'feedback'],
    ] as const) {
      const { res, text } = await download(admin, file)
      expect(res.status).toBe(200)
      const rows = parse(text, { bom: true, columns: true }) as unknown[]
      const [count] = await server.sql<
        { n: number }[]
      >`SELECT count(*)::int AS n FROM ${server.sql(table)}`
      expect(rows.length, file).toBe(count?.n)
    }
  })
})
