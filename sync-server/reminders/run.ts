import { isSnoozable } from '../../shared/notification.ts'
import type { Db, Sql } from '../db/connect.ts'
import { notify } from '../notifications/notify.ts'
import { readProgrammeSettings } from '../settings/queries.ts'
import { type Due, type ReminderKind, type Scan, STAGES, type Stage } from './stages.ts'

/** Reminders sent in one transaction at most; a stage with more due goes on in the next. */
const BATCH = 200
/** Two-key advisory locks of this first key: one a stage, so runners on several instances take turns. */
const LOCK_SPACE = 7312018

export type ReminderCounts = Record<ReminderKind, number>

/**
 * Sends every reminder due at `now` (decision 0039): for each stage that is
 * on, the reminders whose condition holds and that were not sent yet, then
 * (for the kinds a person can snooze) those whose snooze is over. Each is
 * recorded in `reminders_sent` and written with `notify` in one transaction,
 * and only the rows this run inserted are sent, so several runners at once
 * (instances, a restart mid-run) send each exactly once. Thresholds are read
 * from the programme settings on every run. Answers how many of each went;
 * a stage that fails is thrown (AggregateError) after the other stages ran.
 *
 * @example
 * await runReminders(sql, { now: new Date() })
 */
export async function runReminders(sql: Sql, { now }: { now: Date }): Promise<ReminderCounts> {
  const settings = await readProgrammeSettings(sql)
  const counts = {} as ReminderCounts
  const failed: { kind: ReminderKind; error: unknown }[] = []
  for (const stage of STAGES) {
    counts[stage.kind] = 0
    const threshold = stage.threshold(settings)
    if (threshold === null) continue
    // A stage that fails does not hold up the others; the run reports it at the end.
    try {
      counts[stage.kind] += await sendDue(sql, stage, now, threshold, 'first')
      if (isSnoozable(stage.kind)) {
        counts[stage.kind] += await sendDue(sql, stage, now, threshold, 'after snooze')
      }
    } catch (error) {
      failed.push({ kind: stage.kind, error })
    }
  }
  if (failed.length > 0) {
    const first = failed[0]?.error
    throw new AggregateError(
      failed.map((f) => f.error),
      `${failed.map((f) => f.kind).join(', ')} failed: ${first instanceof Error ? first.message : String(first)}`,
    )
  }
  return counts
}

type Mode = 'first' | 'after snooze'

async function sendDue(
  sql: Sql,
  stage: Stage,
  now: Date,
  threshold: number,
  mode: Mode,
): Promise<number> {
  let total = 0
  for (;;) {
    const { sent, more } = await sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${LOCK_SPACE}, hashtext(${stage.kind}))`
      const scan: Scan = { now, threshold, limit: BATCH, pick: picker(tx, stage.kind, now, mode) }
      const due = await stage.due(tx, scan)
      const claimed =
        mode === 'first'
          ? await claim(tx, stage.kind, due, now)
          : await claimAgain(tx, stage.kind, due, now)
      const written: { due: Due; notificationId: string }[] = []
      for (const d of claimed) {
        const [note] = await notify(tx, [d.userId], stage.message(d, scan))
        if (note) written.push({ due: d, notificationId: note.notificationId })
      }
      await linkNotifications(tx, stage.kind, written)
      // A full batch may have more behind it (unless none of it could be claimed).
      return { sent: claimed.length, more: due.length === BATCH && claimed.length > 0 }
    })
    total += sent
    if (!more) return total
  }
}

/** The reminders of `kind` a scan picks: not sent yet, or sent, snoozed, snooze over and not sent again. */
function picker(db: Db, kind: ReminderKind, now: Date, mode: Mode): Scan['pick'] {
  return (subjectId, userId) =>
    mode === 'first'
      ? db`NOT EXISTS (SELECT 1 FROM reminders_sent r
          WHERE r.stage = ${kind} AND r.subject_id = ${subjectId} AND r.user_id = ${userId})`
      : db`EXISTS (SELECT 1 FROM reminders_sent r JOIN notifications n ON n.id = r.notification_id
          WHERE r.stage = ${kind} AND r.subject_id = ${subjectId} AND r.user_id = ${userId}
            AND r.snooze_resent_at IS NULL AND n.snoozed_until <= ${now}::timestamptz)`
}

const pairs = (due: Due[]) => ({
  subjects: due.map((d) => d.subjectId),
  users: due.map((d) => d.userId),
})
const key = (subjectId: string, userId: string) => `${subjectId}/${userId}`

/** Records first sends; answers the ones this transaction inserted (another runner may have won the rest). */
async function claim(db: Db, kind: ReminderKind, due: Due[], now: Date): Promise<Due[]> {
  if (due.length === 0) return []
  const { subjects, users } = pairs(due)
  const rows = await db<{ subjectId: string; userId: string }[]>`
    INSERT INTO reminders_sent (stage, subject_id, user_id, sent_at)
    SELECT ${kind}, v.subject_id, v.user_id, ${now}::timestamptz
    FROM unnest(${db.array(subjects)}::uuid[], ${db.array(users)}::uuid[]) AS v(subject_id, user_id)
    ORDER BY v.subject_id, v.user_id
    ON CONFLICT DO NOTHING
    RETURNING subject_id AS "subjectId", user_id AS "userId"`
  const inserted = new Set(rows.map((r) => key(r.subjectId, r.userId)))
  return due.filter((d) => inserted.has(key(d.subjectId, d.userId)))
}

/** Records sends after a snooze (once); answers the ones this transaction marked. */
async function claimAgain(db: Db, kind: ReminderKind, due: Due[], now: Date): Promise<Due[]> {
  if (due.length === 0) return []
  const { subjects, users } = pairs(due)
  const rows = await db<{ subjectId: string; userId: string }[]>`
    UPDATE reminders_sent r SET snooze_resent_at = ${now}::timestamptz
    FROM unnest(${db.array(subjects)}::uuid[], ${db.array(users)}::uuid[]) AS v(subject_id, user_id)
    WHERE r.stage = ${kind} AND r.subject_id = v.subject_id AND r.user_id = v.user_id
      AND r.snooze_resent_at IS NULL
    RETURNING r.subject_id AS "subjectId", r.user_id AS "userId"`
  const marked = new Set(rows.map((r) => key(r.subjectId, r.userId)))
  return due.filter((d) => marked.has(key(d.subjectId, d.userId)))
}

/** Points each record at the notification just written for it. */
async function linkNotifications(
  db: Db,
  kind: ReminderKind,
  written: { due: Due; notificationId: string }[],
): Promise<void> {
  if (written.length === 0) return
  await db`
    UPDATE reminders_sent r SET notification_id = v.notification_id
    FROM unnest(${db.array(written.map((w) => w.due.subjectId))}::uuid[],
                ${db.array(written.map((w) => w.due.userId))}::uuid[],
                ${db.array(written.map((w) => w.notificationId))}::uuid[])
      AS v(subject_id, user_id, notification_id)
    WHERE r.stage = ${kind} AND r.subject_id = v.subject_id AND r.user_id = v.user_id`
}

/**
 * Runs the reminders now and then every `intervalMs` (every instance runs
 * it; the records make each reminder go once). A failed run is logged and the
 * next one tries again. `stop` waits for a run in progress to finish.
 */
export function startReminders(
  sql: Sql,
  { intervalMs = 60_000 }: { intervalMs?: number } = {},
): { stop: () => Promise<void> } {
  let running: Promise<unknown> | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const tick = () => {
    running = runReminders(sql, { now: new Date() })
      .catch((error: unknown) =>
        console.warn('Reminders failed:', error instanceof Error ? error.message : error),
      )
      .finally(() => {
        running = undefined
        if (!stopped) {
          timer = setTimeout(tick, intervalMs)
          timer.unref()
        }
      })
  }
  tick()
  return {
    stop: async () => {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
