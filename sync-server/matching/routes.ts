import { Hono } from 'hono'
import { checkSeeCandidates } from '../../shared/invitation.ts'
import { candidatesFor, recommend } from '../../shared/matching.ts'
import {
  candidatesQuerySchema,
  candidatesResponseSchema,
  recommendationsQuerySchema,
  recommendationsResponseSchema,
} from '../../shared/matching-api.ts'
import type { Topic } from '../../shared/topic.ts'
import type { User } from '../../shared/user.ts'
import type { Db } from '../db/connect.ts'
import { callerOn, requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { query } from '../http/input.ts'
import { route } from '../http/route.ts'
import { enforce, found } from '../http/validate.ts'
import { readProgrammeSettings } from '../settings/queries.ts'
import { getVisibleTopic, topicColumns } from '../topics/queries.ts'
import { userColumns } from '../users/queries.ts'

const NOT_FOUND = 'Topic not found'

/** /api/recommendations: topics that fit the caller. */
export const recommendationRoutes = new Hono<AppEnv>()

/** /api/topics/{id}/candidates: people who might fit a topic, for its mentor. */
export const topicCandidateRoutes = new Hono<AppEnv>()

/** Every approved topic, as GET /api/topics answers it (only approved ones can be applied to). */
function approvedTopics(db: Db) {
  return db<Topic[]>`
    SELECT ${topicColumns(db)}
    FROM topics t JOIN users m ON m.id = t.mentor_id
    WHERE t.status = 'approved'
    ORDER BY t.id`
}

/** Every user, as GET /api/users answers them. */
function everyone(db: Db) {
  return db<User[]>`SELECT ${userColumns(db)} FROM users u ORDER BY u.id`
}

async function idSet(rows: Promise<{ id: string }[]>): Promise<Set<string>> {
  return new Set((await rows).map((r) => r.id))
}

recommendationRoutes.get(
  '/',
  route({
    tag: 'Recommendations',
    errors: [401],
    summary: 'Topics recommended for the caller',
    description:
      'Open topics that share an interest with the caller’s profile, not their own, not applied to and not marked "Not interested", best fit first: `score` in 0..1 (the weighted mean of shared interests, seniority, location, free places and how quickly the mentor answers, weighted by the programme settings) and `reasons` in words. The same function (shared/matching.ts) runs offline in the PWA. No topic is first for more than 3 people per free place: people take turns for first places, those without an accepted application first. Empty while the profile has no interests, and when every topic that fits the caller has given its first places to others (the PWA shows those apart, as in demand).',
    response: {
      status: 200,
      schema: recommendationsResponseSchema,
      description: 'Recommendations, best first',
    },
  }),
  query(recommendationsQuerySchema),
  async (c) => {
    const user = requireUser(c)
    const { limit } = c.var.query()
    const db = c.get('db')
    const people = await everyone(db)
    const me = found(
      people.find((p) => p.id === user.id),
      'User not found',
    )
    const [topics, applied, dismissed, settings] = await Promise.all([
      approvedTopics(db),
      idSet(db`SELECT topic_id AS id FROM applications WHERE mentee_id = ${user.id}`),
      idSet(db`
        SELECT topic_id AS id FROM topic_dismissals WHERE user_id = ${user.id} AND dismissed`),
      readProgrammeSettings(db),
    ])
    const recommendations = recommend({
      me,
      topics,
      people,
      applied,
      dismissed,
      weights: settings.matchWeights,
      limit,
    })
    return c.json(recommendations.map(({ topic, score, reasons }) => ({ topic, score, reasons })))
  },
)

topicCandidateRoutes.get(
  '/:id/candidates',
  route({
    tag: 'Recommendations',
    errors: [401, 403, 404],
    summary: 'People who might fit a topic',
    description:
      'For the topic’s mentor and administrators: people who said they are looking for a mentor, have not applied, and share an interest with the topic or are of a seniority it is for; people without a mentor first, then best fit. `invitation` is the status of the invitation already sent to that person for this topic, or null. A topic the caller may not see answers 404.',
    response: {
      status: 200,
      schema: candidatesResponseSchema,
      description: 'People, best fit first',
    },
  }),
  query(candidatesQuerySchema),
  async (c) => {
    const { actor, id, db } = callerOn(c, NOT_FOUND)
    const topic = found(await getVisibleTopic(db, actor, id), NOT_FOUND)
    enforce(checkSeeCandidates(actor, topic))
    const { limit } = c.var.query()
    const [people, applied, invitations, settings] = await Promise.all([
      everyone(db),
      idSet(db`SELECT mentee_id AS id FROM applications WHERE topic_id = ${id}`),
      db<{ menteeId: string; status: 'open' | 'declined' }[]>`
        SELECT mentee_id AS "menteeId", status FROM invitations WHERE topic_id = ${id}`,
      readProgrammeSettings(db),
    ])
    const invited = new Map(invitations.map((i) => [i.menteeId, i.status]))
    const candidates = candidatesFor({
      topic,
      people,
      applied,
      weights: settings.matchWeights,
      limit,
    })
    return c.json(
      candidates.map(({ person, score, reasons }) => ({
        user: person,
        score,
        reasons,
        invitation: invited.get(person.id) ?? null,
      })),
    )
  },
)
