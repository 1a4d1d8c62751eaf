import { baseUrl } from './browser.ts'

/** A signed-in API client in Node (plain fetch and the session cookie), to set up and check data. */
export async function apiAs(username: string) {
  const signIn = await fetch(`${baseUrl()}/api/auth/dev-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId: username }),
  })
  if (signIn.status !== 200) throw new Error(`dev-login as ${username}: ${signIn.status}`)
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  return {
    get: async <T>(path: string): Promise<T> => {
      const res = await fetch(`${baseUrl()}${path}`, { headers: { cookie } })
      if (!res.ok) throw new Error(`GET ${path}: ${res.status}`)
      return (await res.json()) as T
    },
    post: async (path: string, body: unknown) => {
      const res = await fetch(`${baseUrl()}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify(body),
      })
      const json = (await res.json()) as { id: string }
      if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(json)}`)
      return json
    },
  }
}

/** An approved topic with two places for juniors, proposed by a new mentor. */
export async function approvedTopicFor(mentorName: string, subject: string): Promise<string> {
  const mentor = await apiAs(mentorName)
  const admin = await apiAs('admin')
  const topic = await mentor.post('/api/topics', {
    subject,
    maxMentees: 2,
    seniorityRequired: ['junior'],
  })
  await admin.post(`/api/admin/topics/${topic.id}/review`, { status: 'approved' })
  return topic.id
}
