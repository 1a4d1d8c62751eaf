import Dexie, { type Table } from 'dexie'
import type { PendingLimit } from '../../../../shared/application.ts'
import { DEFAULT_PREFERENCES, type Preferences } from '../../../../shared/preferences.ts'
import {
  DEFAULT_PROGRAMME_SETTINGS,
  type ProgrammeSettings,
} from '../../../../shared/programme-settings.ts'
import { type PullResponse, SYNC_KEY, type SyncTable } from '../../../../shared/sync.ts'
import type { OutboxRow, RejectedRow, RowTable, RowTypes, SyncDb } from './db.ts'
import { type Merged, mergeRow, mergeRows } from './overlay.ts'
import { byNewest, packStores, syncedNewest, syncedRow, syncedRows, syncedWhere } from './packs.ts'

/**
 * Reads of the merged view: what screens show, through `useLiveQuery`
 * (react.ts). Each read runs in one read transaction (or in the transaction
 * it is called from, a write's: `reading`), so a screen never sees a synced
 * row without the overlay that belongs with it.
 */

/**
 * Runs `scope` in a read transaction over `tables`, or directly in the
 * transaction it is called from when that one covers them. Dexie runs the
 * transactions nested in another one after the other (each holds its parent
 * until it ends), so the reads a write makes at once (queueMutation's checks)
 * would each wait for the one before: six IndexedDB round trips, each behind
 * whatever the page draws meanwhile, instead of one (issue 20).
 */
function reading<T>(db: SyncDb, tables: Table[], scope: () => Promise<T>): Promise<T> {
  const current = Dexie.currentTransaction
  if (
    current?.active &&
    current.db === db &&
    tables.every((t) => current.storeNames.includes(t.name))
  )
    return scope()
  return db.transaction('r', tables, scope)
}

const keyOf = (table: RowTable) => (row: object) =>
  String(
    (row as Record<string, unknown>)[
      table === 'preferences' || table === 'settings' ? 'key' : SYNC_KEY[table]
    ],
  )

/** Every merged row of a table (topics, applications and notifications newest first). */
export function readTable<K extends SyncTable>(
  db: SyncDb,
  table: K,
): Promise<Merged<RowTypes[K]>[]> {
  return reading(db, [...packStores(db, table), db.overlay, db.rejected], async () => {
    const [rows, overlays, rejected] = await Promise.all([
      syncedRows<RowTypes[K]>(db, table),
      db.overlay.where('table').equals(table).toArray(),
      db.rejected.toArray(),
    ])
    const merged = mergeRows(table, rows, keyOf(table), overlays, rejected)
    if (table === 'topics' || table === 'applications' || table === 'notifications') {
      ;(merged as unknown as { createdAt: string }[]).sort(byNewest)
    }
    if (table === 'interests') {
      ;(merged as unknown as { name: string }[]).sort((a, b) => a.name.localeCompare(b.name))
    }
    return merged
  })
}

/**
 * The newest `limit` topics, merged, newest first, through the createdAt
 * index, with the topics created offline: a list's first screen without
 * reading the whole table.
 */
export function readNewestTopics(db: SyncDb, limit: number): Promise<Merged<RowTypes['topics']>[]> {
  return reading(db, [...packStores(db, 'topics'), db.overlay, db.rejected], async () => {
    const [rows, overlays, rejected] = await Promise.all([
      syncedNewest<RowTypes['topics']>(db, 'topics', limit),
      db.overlay.where('table').equals('topics').toArray(),
      db.rejected.toArray(),
    ])
    const held = new Set(rows.map((r) => r.id))
    // Only the overlays of these rows and of rows created here: not a change to an older topic.
    const own = overlays.filter((o) => held.has(o.rowId) || o.op.create !== undefined)
    return mergeRows('topics', rows, keyOf('topics'), own, rejected).sort(byNewest).slice(0, limit)
  })
}

/** One merged row, or undefined. */
export function readRow<K extends RowTable>(
  db: SyncDb,
  table: K,
  id: string,
): Promise<Merged<RowTypes[K]> | undefined> {
  return reading(db, [...packStores(db, table), db.overlay, db.rejected], async () => {
    // Together: one round trip to the browser's database instead of three.
    const [row, overlays, allRejected] = await Promise.all([
      syncedRow<RowTypes[K]>(db, table, id),
      db.overlay.where('[table+rowId]').equals([table, id]).toArray(),
      db.rejected.toArray(),
    ])
    const rejected = allRejected.filter((r) =>
      r.targets.some((t) => t.table === table && t.rowId === id),
    )
    return mergeRow(row, overlays, rejected)
  })
}

/**
 * The merged rows whose indexed field `index` is `value`: the synced rows
 * through the index, the table's overlay (rows created offline included) and
 * the rejected changes, read at once, then only those that match. Newest first.
 */
function readIndexed<K extends 'applications' | 'feedback' | 'topics'>(
  db: SyncDb,
  table: K,
  index: 'topicId' | 'mentee.id' | 'mentorId',
  value: string,
): Promise<Merged<RowTypes[K]>[]> {
  const fieldOf = (row: object): unknown =>
    index === 'mentee.id'
      ? (row as { mentee?: { id?: string } }).mentee?.id
      : (row as Record<string, unknown>)[index]
  return reading(db, [...packStores(db, table), db.overlay, db.rejected], async () => {
    // Together: each IndexedDB request is a round trip, and a screen waits for the last.
    const [rows, overlays, rejected] = await Promise.all([
      syncedWhere<RowTypes[K]>(db, table, index, value),
      db.overlay.where('table').equals(table).toArray(),
      db.rejected.toArray(),
    ])
    return mergeRows(table, rows, keyOf(table), overlays, rejected)
      .filter((row) => fieldOf(row) === value)
      .sort(byNewest)
  })
}

/**
 * A new device's first pull page as the topic list reads its database: the
 * page's topics and the user's applications in it, newest first, merged with
 * nothing (a device syncing for the first time has no changes of its own).
 * What the list shows while that page is being written (early-page.ts).
 */
export function readEarlyPage(page: PullResponse, menteeId: string) {
  const topics = mergeRows(
    'topics',
    page.changes.topics as RowTypes['topics'][],
    keyOf('topics'),
    [],
  ).sort(byNewest)
  const applications = mergeRows(
    'applications',
    (page.changes.applications as RowTypes['applications'][]).filter(
      (a) => a.mentee.id === menteeId,
    ),
    keyOf('applications'),
    [],
  ).sort(byNewest)
  return { topics, applications }
}

/** The applications a user made, newest first (through the mentee index). */
export function readApplicationsOfMentee(db: SyncDb, menteeId: string) {
  return readIndexed(db, 'applications', 'mentee.id', menteeId)
}

/** The topics a user mentors, newest first (through the mentor index). */
export function readTopicsOfMentor(db: SyncDb, mentorId: string) {
  return readIndexed(db, 'topics', 'mentorId', mentorId)
}

/**
 * The topics a user mentors, each with its applications, newest first, read
 * together in one transaction and one round: the topics through the mentor
 * index and the applications through their topic's mentor, at the same time
 * (what a new application waits for on an open dashboard, issue 20).
 */
export function readMentorTopics(db: SyncDb, mentorId: string) {
  const tables = [...packStores(db, 'topics'), db.applications, db.overlay, db.rejected]
  return reading(db, tables, async () => {
    const [topicRows, applicationRows, topicOverlays, applicationOverlays, rejected] =
      await Promise.all([
        syncedWhere<RowTypes['topics']>(db, 'topics', 'mentorId', mentorId),
        db.applications.where('topic.mentor.id').equals(mentorId).toArray(),
        db.overlay.where('table').equals('topics').toArray(),
        db.overlay.where('table').equals('applications').toArray(),
        db.rejected.toArray(),
      ])
    const topics = mergeRows('topics', topicRows, keyOf('topics'), topicOverlays, rejected)
      .filter((topic) => topic.mentorId === mentorId)
      .sort(byNewest)
    const applications = new Map(
      topics.map((t) => [t.id, [] as Merged<RowTypes['applications']>[]]),
    )
    // By topic, not by the mentor copy: an application made here offline names its topic.
    const merged = mergeRows(
      'applications',
      applicationRows,
      keyOf('applications'),
      applicationOverlays,
      rejected,
    )
    for (const application of merged) applications.get(application.topicId)?.push(application)
    for (const list of applications.values()) list.sort(byNewest)
    return topics.map((topic) => ({ topic, applications: applications.get(topic.id) ?? [] }))
  })
}

/** A topic's applications, newest first. */
export function readApplicationsOfTopic(db: SyncDb, topicId: string) {
  return readIndexed(db, 'applications', 'topicId', topicId)
}

/** A topic's feedback, newest first. */
export function readFeedbackOfTopic(db: SyncDb, topicId: string) {
  return readIndexed(db, 'feedback', 'topicId', topicId)
}

/** The caller's application to a topic, if any. */
export async function readMyApplication(db: SyncDb, topicId: string, userId: string) {
  return (await readApplicationsOfTopic(db, topicId)).find((a) => a.mentee.id === userId)
}

/** A user by username (case-insensitive, as the server reads it), through the username index. */
export async function readUserByUsername(db: SyncDb, username: string) {
  return reading(db, [...packStores(db, 'users'), db.overlay, db.rejected], async () => {
    const [found] = await syncedWhere<RowTypes['users']>(db, 'users', 'username', username, true)
    return found ? readRow(db, 'users', found.id) : undefined
  })
}

/** Open-for-matching topics: the approved ones, merged, through the status index. */
function readApprovedTopics(db: SyncDb) {
  return reading(db, [...packStores(db, 'topics'), db.overlay, db.rejected], async () => {
    const [rows, overlays, rejected] = await Promise.all([
      syncedWhere<RowTypes['topics']>(db, 'topics', 'status', 'approved'),
      db.overlay.where('table').equals('topics').toArray(),
      db.rejected.toArray(),
    ])
    const held = new Set(rows.map((r) => r.id))
    // A change to a topic that was not approved cannot make it one here (only review can).
    const own = overlays.filter((o) => held.has(o.rowId))
    return mergeRows('topics', rows, keyOf('topics'), own, rejected)
  })
}

/**
 * What matching reads, in one transaction: the approved topics, everyone's
 * profile, the caller's applications and "Not interested" marks, and the
 * programme settings (issue 17).
 */
export function readMatching(db: SyncDb, userId: string) {
  return db.transaction(
    'r',
    [
      ...packStores(db, 'topics'),
      db.users,
      db.applications,
      db.dismissals,
      db.settings,
      db.overlay,
      db.rejected,
    ],
    async () => {
      const [topics, people, applications, dismissals, settings] = await Promise.all([
        readApprovedTopics(db),
        readTable(db, 'users'),
        readApplicationsOfMentee(db, userId),
        readTable(db, 'dismissals'),
        readRow(db, 'settings', 'programme'),
      ])
      return {
        topics,
        people,
        applied: new Set(applications.map((a) => a.topicId)),
        dismissed: new Set(dismissals.filter((d) => d.dismissed).map((d) => d.topicId)),
        settings: settings ?? null,
      }
    },
  )
}

/** The invitations of a topic (the mentor's view), merged. */
export function readInvitationsOfTopic(db: SyncDb, topicId: string) {
  return reading(db, [db.invitations, db.overlay, db.rejected], async () => {
    return (await readTable(db, 'invitations')).filter((i) => i.topicId === topicId)
  })
}

/**
 * The caller's notification preferences, merged, each setting a cached row
 * from before issue 18 lacks at its default (until the next full pull).
 */
export async function readPreferences(db: SyncDb) {
  const row = await readRow(db, 'preferences', 'me')
  return row && { ...row, ...preferencesOf(row) }
}

/** The preferences object of a row (key, sync state and unknown fields left out; gaps filled). */
export function preferencesOf(row: Partial<Preferences>): Preferences {
  return {
    emailNotifications: row.emailNotifications ?? DEFAULT_PREFERENCES.emailNotifications,
    reminders: row.reminders ?? DEFAULT_PREFERENCES.reminders,
    emailDelivery: { ...DEFAULT_PREFERENCES.emailDelivery, ...row.emailDelivery },
    timeZone: row.timeZone ?? null,
    digestHour: row.digestHour ?? DEFAULT_PREFERENCES.digestHour,
    quietHours: row.quietHours ?? DEFAULT_PREFERENCES.quietHours,
  }
}

/** The programme settings, with the defaults for what a cached row does not have yet. */
export async function readSettings(db: SyncDb): Promise<ProgrammeSettings> {
  const row = await readRow(db, 'settings', 'programme')
  return settingsOf(row)
}

export function settingsOf(row: Partial<ProgrammeSettings> | undefined | null): ProgrammeSettings {
  return {
    matchWeights: row?.matchWeights ?? DEFAULT_PROGRAMME_SETTINGS.matchWeights,
    reminders: { ...DEFAULT_PROGRAMME_SETTINGS.reminders, ...row?.reminders },
    programmeLengthMonths:
      row?.programmeLengthMonths ?? DEFAULT_PROGRAMME_SETTINGS.programmeLengthMonths,
    pendingApplicationLimit:
      row?.pendingApplicationLimit ?? DEFAULT_PROGRAMME_SETTINGS.pendingApplicationLimit,
    updatedAt: row?.updatedAt ?? null,
    updatedBy: row?.updatedBy ?? null,
  }
}

/**
 * The caller's pending applications (those queued on this device too) and
 * the programme's limit on them (issue 18), for the apply rule.
 */
export function readPendingLimit(db: SyncDb, userId: string): Promise<PendingLimit> {
  return reading(db, [db.applications, db.settings, db.overlay, db.rejected], async () => {
    const [mine, settings] = await Promise.all([
      readApplicationsOfMentee(db, userId),
      readSettings(db),
    ])
    return {
      pending: mine.filter((a) => a.status === 'pending').length,
      limit: settings.pendingApplicationLimit,
    }
  })
}

/** Changes the server refused, newest first: the "changes that could not be saved" list. */
export async function readRejected(db: SyncDb): Promise<RejectedRow[]> {
  return (await db.rejected.orderBy('rejectedAt').toArray()).reverse()
}

/** The outbox in push order. */
export function readOutbox(db: SyncDb): Promise<OutboxRow[]> {
  return db.outbox.orderBy('seq').toArray()
}
