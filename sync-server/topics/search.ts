import type { Actor } from '../../shared/decision.ts'
import type { TopicListQuery } from '../../shared/topic.ts'
import type { Db } from '../db/connect.ts'
import type { TopicPageKey } from './page-cursor.ts'
import { topicAnswer, visibleTo } from './queries.ts'

export type TopicSearch = {
  filters: TopicListQuery
  /** Search words (web search syntax); undefined for no search. */
  q: string | undefined
  /** At most this many topics; undefined for all. */
  limit: number | undefined
  /** Start after this topic (keyset on the ordering). */
  after: TopicPageKey | undefined
}

/**
 * `json`: the page's topics as the API answers them, a JSON array in UTF-8:
 * Postgres builds each topic's JSON, and its bytes are joined as they arrive,
 * never decoded into strings or objects.
 */
export type TopicPage = { json: Buffer; next: TopicPageKey | undefined }

/**
 * The list filters in SQL, the same rules as `matchesTopicFilters` in
 * shared/topic.ts (topics/search.test.ts checks they agree): "online" and
 * "in-person" include topics offered both ways, "both" means both ways.
 */
function filtersSql(db: Db, filters: TopicListQuery) {
  const { location, seniority, status } = filters
  return db`
    ${
      location === undefined
        ? db``
        : location === 'both'
          ? db`AND t.location = 'both'`
          : db`AND t.location IN (${location}::topic_location, 'both')`
    }
    ${seniority === undefined ? db`` : db`AND ${seniority}::seniority = ANY(t.seniority_required)`}
    ${status === undefined ? db`` : db`AND t.status = ${status}::topic_status`}`
}

/**
 * The topics the actor may see that pass the filters and the search, best
 * match first (ts_rank over the topic's document and its mentor's name),
 * newest first on ties and without `q`. With `limit`, one page from `after`
 * on, and the key of its last topic when there are more.
 */
export async function searchTopics(db: Db, actor: Actor, search: TopicSearch): Promise<TopicPage> {
  const { q, limit, after } = search
  const query = db`websearch_to_tsquery('simple', ${q ?? ''})`
  // The mentor's name weighs like an interest (B): see sql/0007_topic_search.sql.
  const rank =
    q === undefined
      ? db`0::real`
      : db`ts_rank(t.search || user_search_document(m.full_name, m.username), ${query})`
  const matches =
    q === undefined
      ? db``
      : db`AND (t.search @@ ${query} OR t.mentor_id IN (
              SELECT u.id FROM users u WHERE user_search_document(u.full_name, u.username) @@ ${query}))`
  // As text: postgres.js would send a timestamptz parameter through a JS Date, losing microseconds.
  const keyset = after
    ? db`AND (${rank} < ${after.rank}::real OR (${rank} = ${after.rank}::real AND (
              t.created_at < ${after.createdAt}::text::timestamptz
              OR (t.created_at = ${after.createdAt}::text::timestamptz AND t.id > ${after.id}::uuid))))`
    : db``
  const paging =
    limit === undefined
      ? db``
      : db`, ${rank} AS "pageRank",
           to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "pageAt"`
  // Raw: each column's bytes as the server sent them (topic, id, then the page key).
  const rows = await db`
    SELECT row_to_json(answer)::text AS topic, t.id ${paging}
    FROM topics t JOIN users m ON m.id = t.mentor_id, ${topicAnswer(db)}
    WHERE ${visibleTo(db, actor)} ${filtersSql(db, search.filters)} ${matches} ${keyset}
    ORDER BY ${rank} DESC, t.created_at DESC, t.id
    ${limit === undefined ? db`` : db`LIMIT ${limit + 1}`}`.raw()
  const page = limit === undefined ? rows : rows.slice(0, limit)
  const parts: Buffer[] = [OPEN]
  page.forEach((row, i) => {
    if (i > 0) parts.push(COMMA)
    parts.push(row[0] as Buffer)
  })
  parts.push(CLOSE)
  const last = limit === undefined ? undefined : rows[limit - 1]
  const next =
    limit !== undefined && rows.length > limit && last
      ? { rank: Number(String(last[2])), createdAt: String(last[3]), id: String(last[1]) }
      : undefined
  return { json: Buffer.concat(parts), next }
}

const OPEN = Buffer.from('[')
const COMMA = Buffer.from(',')
const CLOSE = Buffer.from(']')
