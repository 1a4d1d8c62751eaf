import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCATIONS, SENIORITY_LEVELS, TOPIC_STATUSES } from '../../shared/constants.ts'
import { matchesTopicFilters, type Topic } from '../../shared/topic.ts'
import { approvedTopic, createTopic, expectProblem, signInAdmin, unique } from '../test/api.ts'
import type { Client, TestServer } from '../test/server.ts'
import { startTestServer } from '../test/server.ts'

// GET /api/topics: full-text search (q), filters in SQL, keyset paging with a
// Link header, and the ETag / If-None-Match answer, through HTTP.

let server: TestServer
let admin: Client

beforeAll(async () => {
  server = await startTestServer()
  admin = await signInAdmin(server)
})
afterAll(() => server?.stop())

const subjects = (topics: Topic[]) => topics.map((t) => t.subject)
const ids = (topics: { id: string }[]) => topics.map((t) => t.id)

async function list(client: Client, query: Record<string, string> = {}) {
  const res = await client.get(`/api/topics?${new URLSearchParams(query)}`)
  expect(res.status, res.text).toBe(200)
  return res.body as Topic[]
}

/** A word no other topic of this file contains. */
const word = (prefix: string) => unique(prefix).replace('-', 'x')

describe('GET /api/topics?q=', () => {
  it('finds a topic by its subject, its description text, an interest and its mentor name', async () => {
    const mentor = await server.signIn(unique('grace.hopper'))
    const name = word('Hopperton')
    await server.sql`UPDATE users SET full_name = ${`Grace ${name}`} WHERE id = ${mentor.user?.id ?? ''}`
    const [s, d, i] = [word('subj'), word('desc'), word('intr')]
    const bySubject = await approvedTopic(admin, mentor, { subject: `Intro to ${s}` })
    const byDescription = await approvedTopic(admin, mentor, {
      description: `<p>We read <strong>${d}</strong> &amp; more.</p>`,
    })
    const byInterest = await approvedTopic(admin, mentor, { interests: [i] })
    const reader = await server.signIn(unique('reader'))

    expect(ids(await list(reader, { q: s }))).toEqual([bySubject.id])
    expect(ids(await list(reader, { q: d.toUpperCase() }))).toEqual([byDescription.id])
    expect(ids(await list(reader, { q: i }))).toEqual([byInterest.id])
    // The mentor's full name and a part of the username find all three, newest first.
    const all = [byInterest.id, byDescription.id, bySubject.id]
    expect(ids(await list(reader, { q: name }))).toEqual(all)
    expect(ids(await list(reader, { q: 'hopper' }))).toEqual(all)
    // Tags and entities of the description are not words of it.
    const tagged = await list(reader, { q: `strong ${d}` })
    expect(ids(tagged)).toEqual([])
  })

  it('ranks a subject match above a description match, even an older one', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const w = word('rank')
    const inSubject = await approvedTopic(admin, mentor, { subject: `All about ${w}` })
    const inDescription = await approvedTopic(admin, mentor, { description: `<p>Some ${w}.</p>` })
    const reader = await server.signIn(unique('reader'))
    expect(ids(await list(reader, { q: w }))).toEqual([inSubject.id, inDescription.id])
    // Without q: newest first.
    const both = (await list(reader)).filter((t) => [inSubject.id, inDescription.id].includes(t.id))
    expect(ids(both)).toEqual([inDescription.id, inSubject.id])
  })

  it('combines with the filters', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const w = word('combo')
    const online = await approvedTopic(admin, mentor, {
      subject: `${w} online`,
      location: 'online',
    })
    await approvedTopic(admin, mentor, { subject: `${w} in person`, location: 'in-person' })
    await approvedTopic(admin, mentor, {
      subject: `${w} seniors`,
      location: 'online',
      seniorityRequired: ['senior'],
    })
    const reader = await server.signIn(unique('reader'))
    expect(ids(await list(reader, { q: w, location: 'online', seniority: 'junior' }))).toEqual([
      online.id,
    ])
    expect(await list(reader, { q: w, status: 'proposed' })).toEqual([])
  })

  it("does not find another mentor's proposed topic; its mentor and administrators do", async () => {
    const mentor = await server.signIn(unique('mentor'))
    const w = word('hidden')
    const proposed = await createTopic(mentor, { subject: `Secret ${w}` })
    const other = await server.signIn(unique('other'))
    expect(await list(other, { q: w })).toEqual([])
    expect(ids(await list(mentor, { q: w }))).toEqual([proposed.id])
    expect(ids(await list(admin, { q: w }))).toEqual([proposed.id])
  })

  it('never fails on odd search text; a q without words is no search', async () => {
    const reader = await server.signIn(unique('reader'))
    const everything = ids(await list(reader))
    expect(everything.length).toBeGreaterThan(0)
    for (const q of ['', '   ', '!!!', '-', '"', '""', '\u0000']) {
      expect(ids(await list(reader, { q })), JSON.stringify(q)).toEqual(everything)
    }
    for (const q of ['"unclosed', 'a & b | !c :*', "o'brien OR -", '(x) <-> y', 'or', '\\']) {
      const res = await reader.get(`/api/topics?${new URLSearchParams({ q })}`)
      expect(res.status, `${q}: ${res.text}`).toBe(200)
    }
    expectProblem(await reader.get(`/api/topics?q=${'x'.repeat(201)}`), 400)
  })

  it('stores the search document 0007 defined, written by the PL/pgSQL function of 0011, on insert and on edit', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const created = await Promise.all(
      [
        { subject: 'Go, IT & C++ für Anfänger', interests: [] },
        {
          subject: 'Ünïcödé — ✓ 日本語',
          description: '<p>a&nbsp;b &#38; <em>c</em> &amp;amp; <br>d</p>',
        },
        { subject: 'x', interests: ['Machine learning', 'Kubernetes', '   ops'] },
        { subject: 'Long '.repeat(40), description: `<ul>${'<li>item word</li>'.repeat(50)}</ul>` },
      ].map((fields) => createTopic(mentor, fields)),
    )
    const first = created[0] as Topic
    const edited = await mentor.patch(`/api/topics/${first.id}`, {
      maxMentees: first.maxMentees,
      seniorityRequired: first.seniorityRequired,
      location: first.location,
      subject: 'Edited: Rust & WebAssembly',
      description: '<p>Now <strong>different</strong> words.</p>',
      interests: ['Rust'],
    })
    expect(edited.status, edited.text).toBe(200)
    // 0007's SQL text, evaluated inline here: the stored column must equal it for every row.
    const rows = await server.sql<{ same: boolean; subject: string }[]>`
      SELECT subject, search = (
        setweight(to_tsvector('simple'::regconfig, subject), 'A')
        || setweight(to_tsvector('simple'::regconfig, array_to_string(interests, ' ')), 'B')
        || setweight(to_tsvector('simple'::regconfig,
             regexp_replace(regexp_replace(description, '<[^>]*>', ' ', 'g'), '&[#A-Za-z0-9]+;', ' ', 'g')), 'C')
      ) AS same
      FROM topics WHERE id = ANY(${created.map((t) => t.id)}::uuid[])`
    expect(rows).toHaveLength(created.length)
    expect(rows.filter((r) => !r.same).map((r) => r.subject)).toEqual([])
    expect(rows.map((r) => r.subject)).toContain('Edited: Rust & WebAssembly')
  })
})

describe('GET /api/topics filters', () => {
  it('filter in SQL exactly as matchesTopicFilters (shared/topic.ts) does', async () => {
    const mentor = await server.signIn(unique('mentor'))
    for (const location of LOCATIONS) {
      await approvedTopic(admin, mentor, { location, seniorityRequired: ['junior', 'senior'] })
      await createTopic(mentor, { location, seniorityRequired: ['mid'] })
    }
    const all = await list(admin)
    expect(new Set(all.map((t) => t.status)).size).toBeGreaterThan(1)
    for (const location of [undefined, ...LOCATIONS]) {
      for (const seniority of [undefined, ...SENIORITY_LEVELS]) {
        for (const status of [undefined, ...TOPIC_STATUSES]) {
          const filters = { location, seniority, status }
          const query: Record<string, string> = {}
          for (const [name, value] of Object.entries(filters)) if (value) query[name] = value
          const expected = all.filter((t) => matchesTopicFilters(t, filters))
          expect(ids(await list(admin, query)), JSON.stringify(query)).toEqual(ids(expected))
        }
      }
    }
  })
})

/** Follows rel="next" links from the first page; every page's topics in order. */
async function walk(client: Client, first: string): Promise<{ topics: Topic[]; pages: number }> {
  const topics: Topic[] = []
  let url: string | undefined = first
  let pages = 0
  while (url) {
    const res = await client.get(url)
    expect(res.status, res.text).toBe(200)
    topics.push(...res.body)
    pages += 1
    const link = res.headers.get('link')
    url = link ? /^<([^>]+)>; rel="next"$/.exec(link)?.[1] : undefined
    if (link) expect(url).toBeDefined()
    expect(pages).toBeLessThan(100)
  }
  return { topics, pages }
}

describe('GET /api/topics answers', () => {
  it('each topic exactly as GET /api/topics/{id} answers it (the list is JSON built by Postgres)', async () => {
    const mentor = await server.signIn(unique('json-mentor'))
    const w = word('json')
    await server.sql`
      UPDATE users SET full_name = ${'Zoë "Zed" \\ O\'Hara 🚀'}, profile_image = ${'/avatars/z.png'}
      WHERE id = ${mentor.user?.id ?? ''}`
    const odd = await approvedTopic(admin, mentor, {
      subject: `${w} "quoted" \\ back\\slash — ünïcödé 🚀 \u2028`,
      description: '<p>Line one</p><p>"Two" &amp; \\three\\ 🎉</p>',
      interests: ['C++', 'naïve "quotes"', 'emoji 🚀'],
      seniorityRequired: ['junior', 'senior'],
    })
    // Another mentor, with no profile image (null).
    const plain = await approvedTopic(admin, await server.signIn(unique('json-plain')), {
      subject: `${w} plain`,
      interests: [],
    })
    const concluded = await approvedTopic(admin, mentor, { subject: `${w} concluded` })
    // A mentor's feedback, and timestamps with microseconds (one rounds up to the next second).
    await server.sql`
      UPDATE topics SET status = 'concluded', mentor_feedback = ${'Went "well" ✓'},
        created_at = '2025-02-28T23:59:59.999999Z', updated_at = '2026-03-01T00:00:00.000500Z'
      WHERE id = ${concluded.id}`
    const rejected = await createTopic(mentor, { subject: `${w} rejected` })
    const review = await admin.post(`/api/admin/topics/${rejected.id}/review`, {
      status: 'rejected',
      rejectionReason: 'Not "this" quarter ✗',
    })
    expect(review.status, review.text).toBe(200)

    for (const reader of [mentor, admin, await server.signIn(unique('json-reader'))]) {
      const listed = (await list(reader, { q: w })).sort((a, b) => a.id.localeCompare(b.id))
      const mayRead = reader === mentor || reader === admin ? 4 : 3
      expect(listed).toHaveLength(mayRead)
      for (const topic of listed) {
        const one = await reader.get(`/api/topics/${topic.id}`)
        expect(one.status, one.text).toBe(200)
        expect(topic).toStrictEqual(one.body)
      }
      expect(ids(listed)).toEqual(expect.arrayContaining([odd.id, plain.id, concluded.id]))
    }
    const [row] = await list(admin, { q: `${w} concluded` })
    expect(row?.createdAt).toBe('2025-02-28T23:59:59.999Z')
    expect(row?.updatedAt).toBe('2026-03-01T00:00:00.000Z')
    expect(row?.mentor.profileImage).toBe('/avatars/z.png')
    const [other] = await list(admin, { q: `${w} plain` })
    expect(other?.mentor.profileImage).toBeNull()
  })
})

describe('GET /api/topics?limit=&cursor=', () => {
  it('walks every topic exactly once, in order, following Link rel="next"', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const w = word('page')
    // Some mention the word in their description too: ranks differ as well as tie.
    for (let n = 0; n < 7; n++) {
      const description = n % 3 === 0 ? `<p>${w} and ${w} again</p>` : ''
      await approvedTopic(admin, mentor, { subject: `${w} ${n}`, description })
    }
    // Ties on created_at: the keyset goes on by id.
    await server.sql`UPDATE topics SET created_at = '2026-01-01T00:00:00.123456Z' WHERE subject LIKE ${`${w} %`}`
    const reader = await server.signIn(unique('reader'))
    const full = await list(reader)
    const paged = await walk(reader, '/api/topics?limit=3')
    expect(ids(paged.topics)).toEqual(ids(full))
    expect(paged.pages).toBe(Math.ceil(full.length / 3))
    // With a search: ordered by rank, then newest, then id.
    const searched = await list(reader, { q: w })
    expect(searched).toHaveLength(7)
    expect(subjects(searched.slice(0, 3)).sort()).toEqual([`${w} 0`, `${w} 3`, `${w} 6`])
    const pagedSearch = await walk(reader, `/api/topics?limit=2&q=${w}`)
    expect(ids(pagedSearch.topics)).toEqual(ids(searched))
    expect(pagedSearch.pages).toBe(4)
  })

  it('sends no Link on the last page, and the whole list without limit', async () => {
    const reader = await server.signIn(unique('reader'))
    const full = await list(reader)
    const one = await reader.get(`/api/topics?limit=${full.length}`)
    expect(one.headers.get('link')).toBeNull()
    expect(ids(one.body)).toEqual(ids(full))
    const page = await reader.get('/api/topics?limit=1')
    expect(page.body).toHaveLength(1)
    expect(page.headers.get('link')).toMatch(/^<\/api\/topics\?limit=1&cursor=[\w-]+>; rel="next"$/)
  })

  it('refuses a tampered cursor, a cursor of another list and a bad limit with 400', async () => {
    const reader = await server.signIn(unique('reader'))
    await approvedTopic(admin, reader)
    await approvedTopic(admin, reader)
    const link = (await reader.get('/api/topics?limit=1')).headers.get('link') ?? ''
    const cursor = /cursor=([\w-]+)/.exec(link)?.[1] ?? ''
    expect((await reader.get(`/api/topics?limit=1&cursor=${cursor}`)).status).toBe(200)
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString())
    const forged = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const tampered = [
      `${cursor.slice(0, -2)}x`,
      'not-a-cursor',
      'a.b',
      forged({ ...decoded, c: '2026-02-30T00:00:00.000000Z' }),
      forged({ ...decoded, i: 'nope' }),
      forged({ ...decoded, r: -1 }),
      forged({ ...decoded, extra: 1 }),
    ]
    for (const bad of tampered) {
      expectProblem(await reader.get(`/api/topics?limit=1&cursor=${encodeURIComponent(bad)}`), 400)
    }
    expectProblem(
      await reader.get(`/api/topics?limit=1&status=approved&cursor=${cursor}`),
      400,
      /other filters/,
    )
    for (const limit of ['0', '501', 'x', '1.5']) {
      expectProblem(await reader.get(`/api/topics?limit=${limit}`), 400)
    }
  })
})

describe('GET /api/topics ETag', () => {
  it('answers 304 without a body for a current If-None-Match, and a new tag after a change', async () => {
    const mentor = await server.signIn(unique('mentor'))
    const topic = await approvedTopic(admin, mentor)
    const reader = await server.signIn(unique('reader'))
    const first = await reader.get('/api/topics')
    const etag = first.headers.get('etag') ?? ''
    expect(etag).toMatch(/^W\/"[\w-]+"$/)
    const again = await reader.get('/api/topics', { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
    expect(again.headers.get('etag')).toBe(etag)
    expect(again.headers.get('cache-control')).toBe('no-store')
    const other = await reader.get('/api/topics', { headers: { 'if-none-match': 'W/"other"' } })
    expect(other.status).toBe(200)

    const edited = await mentor.patch(`/api/topics/${topic.id}`, {
      subject: 'Edited subject',
      maxMentees: 1,
      seniorityRequired: ['junior'],
    })
    expect(edited.status, edited.text).toBe(200)
    const changed = await reader.get('/api/topics', { headers: { 'if-none-match': etag } })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(etag)

    // A mentor's new name changes what the list shows, so its tag too.
    const before = (await reader.get('/api/topics')).headers.get('etag') ?? ''
    await server.sql`UPDATE users SET full_name = 'Renamed' WHERE id = ${mentor.user?.id ?? ''}`
    const renamed = await reader.get('/api/topics', { headers: { 'if-none-match': before } })
    expect(renamed.status).toBe(200)
  })

  it('gives callers who see different topics different tags', async () => {
    const mentor = await server.signIn(unique('mentor'))
    await createTopic(mentor)
    const other = await server.signIn(unique('other'))
    const mine = await mentor.get('/api/topics')
    const theirs = await other.get('/api/topics')
    expect(mine.body.length).toBe(theirs.body.length + 1)
    expect(mine.headers.get('etag')).not.toBe(theirs.headers.get('etag'))
    const cross = await other.get('/api/topics', {
      headers: { 'if-none-match': mine.headers.get('etag') ?? '' },
    })
    expect(cross.status).toBe(200)
  })
})
