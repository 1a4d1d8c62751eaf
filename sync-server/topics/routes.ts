import { randomUUID } from 'node:crypto'
import { Hono } from 'hono'
import { z } from 'zod'
import {
  canViewTopic,
  checkEditTopic,
  checkMaxMentees,
  statusAfterEdit,
  type Topic,
  topicInputSchema,
  topicSchema,
  topicSearchQuerySchema,
} from '../../shared/topic.ts'
import type { Db } from '../db/connect.ts'
import { actorOf, callerOn, requireUser } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { ApiError } from '../http/errors.ts'
import { jsonTextWithETag } from '../http/etag.ts'
import { body, query } from '../http/input.ts'
import { route } from '../http/route.ts'
import { enforce, found, parseId } from '../http/validate.ts'
import { messages } from '../notifications/messages.ts'
import { notify } from '../notifications/notify.ts'
import { findUserById, rememberInterests } from '../users/queries.ts'
import { decodePageCursor, encodePageCursor } from './page-cursor.ts'
import { getVisibleTopic, listTopics, lockTopic, topicColumns } from './queries.ts'
import { sanitizeDescription } from './sanitize.ts'
import { searchTopics } from './search.ts'

const NOT_FOUND = 'Topic not found'
const topicList = z.array(topicSchema)

/** /api/topics: the topic list, creation, reading and editing. */
export const topicRoutes = new Hono<AppEnv>()

topicRoutes.get(
  '/',
  route({
    tag: 'Topics',
    errors: [401],
    summary: 'List topics',
    description:
      'Approved, started and concluded topics for everyone; proposed and rejected topics only for their mentor and administrators. Optional filters: location (online and in-person include topics offered both ways), seniority, status; `q` searches subject, description, interests and mentor name. With `limit`, one page and a `Link: <…>; rel="next"` header while there are more. Send the `ETag` back as `If-None-Match` to get 304 when nothing changed.',
    response: {
      status: 200,
      schema: topicList,
      description: 'Topics: best match first with `q`, then newest first',
      headers: {
        ETag: 'A weak tag of this answer; it changes whenever what the caller sees changes',
        Link: 'With `limit`, when there are more: `<url>; rel="next"`',
      },
      notModified: true,
    },
  }),
  query(topicSearchQuerySchema),
  async (c) => {
    const user = requireUser(c)
    const { q, limit, cursor, ...filters } = c.var.query()
    const request = { ...filters, q }
    const after = cursor === undefined ? undefined : decodePageCursor(cursor, request)
    const page = await searchTopics(c.get('db'), actorOf(user), { filters, q, limit, after })
    if (page.next) {
      const next = new URL(c.req.url)
      next.searchParams.set('cursor', encodePageCursor(request, page.next))
      c.header('link', `<${next.pathname}${next.search}>; rel="next"`)
    }
    return jsonTextWithETag(c, page.json)
  },
)

topicRoutes.post(
  '/',
  route({
    tag: 'Topics',
    errors: [401, 409],
    summary: 'Propose a topic',
    description:
      'Creates a topic with status proposed and notifies the administrators. The description is sanitised to the editor subset of HTML. An optional client-chosen id (UUID) lets an offline client refer to the topic before it syncs.',
    response: { status: 201, schema: topicSchema, description: 'The created topic' },
  }),
  body(topicInputSchema),
  async (c) => {
    const user = requireUser(c)
    const input = await c.var.body()
    const db = c.get('db')
    const id = input.id ?? randomUUID()
    // The answer comes back with the insert (its mentor is the caller, who sees it). The
    // interests and the administrators' notification go out in the same round trip, run after
    // it, and a refusal (the id taken) rolls all of it back.
    const inserting = db<Topic[]>`
    WITH t AS (
      INSERT INTO topics (id, subject, description, max_mentees, seniority_required, location,
                          interests, status, mentor_id)
      VALUES (${id}, ${input.subject},
              ${sanitizeDescription(input.description)}, ${input.maxMentees},
              ${db.array(input.seniorityRequired)}::seniority[], ${input.location},
              ${db.array(input.interests)}::text[], 'proposed', ${user.id})
      ON CONFLICT (id) DO NOTHING
      RETURNING *
    )
    SELECT ${topicColumns(db)} FROM t JOIN users m ON m.id = t.mentor_id`.execute()
    const mentor = { username: user.username, full_name: user.fullName }
    const [[topic]] = await Promise.all([
      inserting,
      rememberInterests(db, input.interests),
      notify(
        db,
        { adminsBut: user.id },
        messages.topicForReview({ id, subject: input.subject }, mentor),
      ),
    ])
    if (!topic) throw new ApiError(409, 'A topic with this id already exists.')
    return c.json(topic, 201)
  },
)

topicRoutes.get(
  '/mentor/:userId',
  route({
    tag: 'Topics',
    errors: [401, 404],
    summary: "A mentor's topics",
    description: 'The topics of one mentor that the caller may see.',
    response: { status: 200, schema: topicList, description: 'Topics, newest first' },
  }),
  async (c) => {
    const user = requireUser(c)
    const mentorId = parseId(c.req.param('userId'), 'User not found')
    const db = c.get('db')
    found(await findUserById(db, mentorId), 'User not found')
    return c.json(await listTopics(db, actorOf(user), { mentorId }))
  },
)

topicRoutes.get(
  '/:id',
  route({
    tag: 'Topics',
    errors: [401, 404],
    summary: 'Read a topic',
    description: 'A topic with its mentor. A topic the caller may not see answers 404.',
    response: { status: 200, schema: topicSchema, description: 'The topic' },
  }),
  async (c) => {
    const user = requireUser(c)
    const id = parseId(c.req.param('id'), NOT_FOUND)
    return c.json(found(await getVisibleTopic(c.get('db'), actorOf(user), id), NOT_FOUND))
  },
)

topicRoutes.patch(
  '/:id',
  route({
    tag: 'Topics',
    errors: [401, 403, 404, 409],
    summary: 'Edit a topic',
    description:
      "The mentor or an administrator edits a topic that has not started. Editing a rejected topic resubmits it for review (proposed, reason cleared). The maximum cannot go below the accepted mentees. The body is the one POST /api/topics takes, without `id` (an `id` equal to the path's is ignored; another one is a 400).",
    response: { status: 200, schema: topicSchema, description: 'The edited topic' },
  }),
  body(topicInputSchema, topicInputSchema.omit({ id: true })),
  async (c) => {
    const { user, actor, id, db } = callerOn(c, NOT_FOUND)
    // Read now, judged after the checks on the topic (a 404 or 403 comes before a 400).
    const [read] = await Promise.allSettled([c.var.body()])
    // The lock, the update and the interests go out in one round trip and run in that order:
    // the checks below decide on the topic as the lock read it, before the update. A refusal
    // rolls the update back with the rest of the request (every 4xx does), so sending it first
    // changes nothing a caller sees; a replayed edit costs one round trip, not two.
    const locking = lockTopic(db, id)
    const edit =
      read.status === 'fulfilled'
        ? {
            input: read.value,
            writing: Promise.allSettled([
              updateTopic(db, user.id, id, read.value),
              rememberInterests(db, read.value.interests),
            ]),
          }
        : { invalid: read.reason as unknown }
    const topic = await locking
    if (!topic || !canViewTopic(actor, topic)) throw new ApiError(404, NOT_FOUND)
    enforce(checkEditTopic(actor, topic))
    if ('invalid' in edit) throw edit.invalid
    const { input, writing } = edit
    if (input.id !== undefined && input.id.toLowerCase() !== id) {
      throw new ApiError(400, 'The id in the body does not match the topic being edited.')
    }
    enforce(checkMaxMentees(topic, input.maxMentees))
    const [updated, remembered] = await writing
    if (updated.status === 'rejected') throw updated.reason
    if (remembered.status === 'rejected') throw remembered.reason
    const answer = found(updated.value, NOT_FOUND)
    if (answer.status !== statusAfterEdit(topic.status)) {
      throw new Error(
        `An edit left a ${topic.status} topic ${answer.status}, not as statusAfterEdit says.`,
      )
    }
    if (topic.status === 'rejected') {
      await notify(
        db,
        { adminsBut: user.id },
        messages.topicForReview({ id, subject: input.subject }, answer.mentor),
      )
    }
    return c.json(answer)
  },
)

/**
 * Writes an edit of topic `id` by `userId` and answers the edited topic as the
 * API shows it, or undefined when the topic has more accepted mentees than the
 * new maximum (then nothing is written: checkMaxMentees refuses that edit, and
 * the table's constraint is never tripped). It does not check who may edit
 * what: the route's checks do, on the topic as locked before this runs.
 */
async function updateTopic(
  db: Db,
  userId: string,
  id: string,
  input: z.output<typeof topicInputSchema>,
): Promise<Topic | undefined> {
  const [edited] = await db<Topic[]>`
    WITH t AS (
      UPDATE topics SET subject = ${input.subject}, description = ${sanitizeDescription(input.description)},
        max_mentees = ${input.maxMentees}, seniority_required = ${db.array(input.seniorityRequired)}::seniority[],
        location = ${input.location}, interests = ${db.array(input.interests)}::text[],
        -- statusAfterEdit: a rejected topic is resubmitted (the route checks the answer against it).
        status = CASE WHEN status = 'rejected' THEN 'proposed' ELSE status END,
        rejection_reason = NULL,
        updated_at = now(),
        -- The mentor editing is activity on the topic (reminders, decision 0039).
        last_activity_at = CASE WHEN mentor_id = ${userId} THEN now() ELSE last_activity_at END
      WHERE id = ${id} AND current_mentees <= ${input.maxMentees}
      RETURNING *
    )
    SELECT ${topicColumns(db)} FROM t JOIN users m ON m.id = t.mentor_id`
  return edited
}
