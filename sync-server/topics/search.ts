import type { Actor } from '../../shared/decision.ts'
import type { Topic, TopicListQuery } from '../../shared/topic.ts'
import type { Db } from '../db/connect.ts'
import type { TopicPageKey } from './page-cursor.ts'
import { topicColumns, visibleTo } from './queries.ts'

export type TopicSearch = {
  filters: TopicListQuery
  /** Search words (web search syntax); undefined for no search. */
  q: string | undefined
  /** At most this many topics; undefined for all. */
  limit: number | undefined
  /** Start after this topic (keyset on the ordering). */
  after: TopicPageKey | undefined
}

export type TopicPage = { topics: Topic[]; next: TopicPageKey | undefined }

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
  const rows = await db<(Topic & { pageRank?: number; pageAt?: string })[]>`
    SELECT ${topicColumns(db)} ${paging}
    FROM topics t JOIN users m ON m.id = t.mentor_id
    WHERE ${visibleTo(db, actor)} ${filtersSql(db, search.filters)} ${matches} ${keyset}
    ORDER BY ${rank} DESC, t.created_at DESC, t.id
    ${limit === undefined ? db`` : db`LIMIT ${limit + 1}`}`
  if (limit === undefined) return { topics: rows, next: undefined }
  const page = rows.slice(0, limit).map(({ pageRank: _r, pageAt: _a, ...topic }) => topic)
  const last = rows[limit - 1]
  const next =
    rows.length > limit && last
      ? { rank: last.pageRank ?? 0, createdAt: last.pageAt ?? '', id: last.id }
      : undefined
  return { topics: page, next }
}
