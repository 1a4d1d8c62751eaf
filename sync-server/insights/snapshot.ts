import type { Db } from '../db/connect.ts'

/** How the programme stands now, whatever the period (docs/insights.md). */
export type Snapshot = {
  openPlaces: number
  filledPlaces: number
  openWithRoom: number
  openFull: number
  menteesWaiting: number
  proposedWaiting: number
  pendingWaiting: number
  byInterest: { key: string; people: number; openTopics: number }[]
  bySeniority: { key: string; people: number; openPlaces: number }[]
}

export type WaitingItem = { id: string; topicId: string; subject: string; since: Date }

/**
 * Capacity, demand and supply now:
 * - open places: free places (max − current) on approved topics; filled: accepted mentees on
 *   approved and started topics; approved topics full or with room;
 * - mentees waiting: people with a pending application and no accepted one on an approved or
 *   started topic;
 * - by interest: people whose profile lists it, and approved topics with room offering it;
 * - by seniority: people at that level, and free places on approved topics open to it.
 */
export async function snapshot(db: Db): Promise<Snapshot> {
  const [totals] = await db<Omit<Snapshot, 'byInterest' | 'bySeniority'>[]>`
    SELECT
      coalesce(sum(max_mentees - current_mentees) FILTER (WHERE status = 'approved'), 0)::int AS "openPlaces",
      coalesce(sum(current_mentees) FILTER (WHERE status IN ('approved', 'started')), 0)::int AS "filledPlaces",
      count(*) FILTER (WHERE status = 'approved' AND current_mentees < max_mentees)::int AS "openWithRoom",
      count(*) FILTER (WHERE status = 'approved' AND current_mentees >= max_mentees)::int AS "openFull",
      count(*) FILTER (WHERE status = 'proposed')::int AS "proposedWaiting",
      (SELECT count(*)::int FROM applications WHERE status = 'pending') AS "pendingWaiting",
      (SELECT count(DISTINCT p.mentee_id)::int FROM applications p
        WHERE p.status = 'pending' AND NOT EXISTS (
          SELECT 1 FROM applications x JOIN topics xt ON xt.id = x.topic_id
          WHERE x.mentee_id = p.mentee_id AND x.status = 'accepted' AND xt.status IN ('approved', 'started')
        )) AS "menteesWaiting"
    FROM topics`
  const byInterest = await db<Snapshot['byInterest']>`
    WITH people AS (
      SELECT i AS key, count(*)::int AS n FROM users u, unnest(u.interests) i GROUP BY i
    ), offered AS (
      SELECT i AS key, count(*)::int AS n FROM topics t, unnest(t.interests) i
      WHERE t.status = 'approved' AND t.current_mentees < t.max_mentees GROUP BY i
    )
    SELECT coalesce(p.key, o.key) AS key, coalesce(p.n, 0) AS people, coalesce(o.n, 0) AS "openTopics"
    FROM people p FULL JOIN offered o ON o.key = p.key
    ORDER BY coalesce(p.n, 0) - coalesce(o.n, 0) DESC, 1`
  const bySeniority = await db<Snapshot['bySeniority']>`
    SELECT s.key,
           (SELECT count(*)::int FROM users u WHERE coalesce(u.seniority::text, 'not given') = s.key) AS people,
           (SELECT coalesce(sum(t.max_mentees - t.current_mentees), 0)::int FROM topics t
             WHERE t.status = 'approved' AND s.key = ANY (t.seniority_required::text[])) AS "openPlaces"
    FROM unnest(ARRAY['junior', 'mid', 'senior', 'not given']) WITH ORDINALITY AS s(key, i) ORDER BY s.i`
  if (!totals) throw new Error('The capacity query answered no row.')
  return { ...totals, byInterest, bySeniority }
}

/** The five topics waiting longest for review, and the five applications waiting longest for an answer. */
export async function oldestWaiting(
  db: Db,
): Promise<{ proposed: WaitingItem[]; pending: WaitingItem[] }> {
  const proposed = await db<WaitingItem[]>`
    SELECT id, id AS "topicId", subject, submitted_at AS since FROM topics WHERE status = 'proposed'
    ORDER BY submitted_at, id LIMIT 5`
  const pending = await db<WaitingItem[]>`
    SELECT a.id, a.topic_id AS "topicId", t.subject, a.created_at AS since
    FROM applications a JOIN topics t ON t.id = a.topic_id WHERE a.status = 'pending'
    ORDER BY a.created_at, a.id LIMIT 5`
  return { proposed, pending }
}
