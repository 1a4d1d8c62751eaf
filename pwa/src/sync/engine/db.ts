import Dexie, { type Table, type Transaction } from 'dexie'
import type { z } from 'zod'
import type { Preferences } from '../../../../shared/preferences.ts'
import type { FieldError } from '../../../../shared/problem.ts'
import type { ProgrammeSettings } from '../../../../shared/programme-settings.ts'
import type {
  SyncTable,
  syncApplicationSchema,
  syncDismissalSchema,
  syncFeedbackSchema,
  syncInterestSchema,
  syncInvitationSchema,
  syncNotificationSchema,
  syncTopicSchema,
  syncUserSchema,
} from '../../../../shared/sync.ts'
import { SYNC_TABLES } from '../../../../shared/sync.ts'

/**
 * One IndexedDB database per signed-in user (`pairwise-<userId>`): the rows
 * pull delivers, the outbox of queued writes, their optimistic overlay (kept
 * apart from the synced rows), the writes the server refused, and metadata.
 */

export type SyncTopic = z.infer<typeof syncTopicSchema>
export type SyncApplication = z.infer<typeof syncApplicationSchema>
export type SyncFeedback = z.infer<typeof syncFeedbackSchema>
export type SyncNotification = z.infer<typeof syncNotificationSchema>
export type SyncUser = z.infer<typeof syncUserSchema>
type SyncInterest = z.infer<typeof syncInterestSchema>
type SyncDismissal = z.infer<typeof syncDismissalSchema>
export type SyncInvitation = z.infer<typeof syncInvitationSchema>
/** The caller's preferences: one row, key `me`. */
type PreferencesRow = Preferences & { key: 'me' }
/** The programme settings: one row, key `programme`. */
type SettingsRow = ProgrammeSettings & { key: 'programme' }

/** A row type per table an optimistic change can touch. */
export type RowTypes = {
  topics: SyncTopic
  applications: SyncApplication
  feedback: SyncFeedback
  notifications: SyncNotification
  users: SyncUser
  interests: SyncInterest
  dismissals: SyncDismissal
  invitations: SyncInvitation
  preferences: PreferencesRow
  settings: SettingsRow
}
export type RowTable = SyncTable | 'preferences' | 'settings'

/**
 * Where one change lands: a table and a row key (id; name for interests;
 * topic id for dismissals; `me` for preferences; `programme` for settings).
 */
export type RowRef = { table: RowTable; rowId: string }

export type MutationKind =
  | 'apply'
  | 'decide-application'
  | 'review-topic'
  | 'start-topic'
  | 'conclude-topic'
  | 'give-feedback'
  | 'create-topic'
  | 'edit-topic'
  | 'update-profile'
  | 'save-preferences'
  | 'mark-notification-read'
  | 'toggle-admin'
  | 'dismiss-topic'
  | 'invite'
  | 'decline-invitation'
  | 'save-settings'
  | 'snooze-notification'
  | 'answer-check-in'

/** queued: never answered; sent: pushed, answer not known; applied: 2xx, waiting for a pull. */
type OutboxStatus = 'queued' | 'sent' | 'applied'

export type OutboxRow = {
  /** Auto-increment: the order mutations are pushed in. */
  seq?: number
  /** The mutation id, sent as its Idempotency-Key. */
  id: string
  kind: MutationKind
  method: 'POST' | 'PATCH'
  path: string
  body?: unknown
  /** What the change is, in words, for the "could not be saved" list. */
  label: string
  /** Rows the change touches: a refusal is shown on them. */
  targets: RowRef[]
  /** The table of the row the 2xx answer is: its pulled copy shows the change arrived. */
  confirmIn: RowTable | null
  /** The server may well refuse it (apply to a topic that may be full): not success yet. */
  awaitingConfirmation: boolean
  createdAt: number
  status: OutboxStatus
  attempts: number
  /** When it was first pushed: its Idempotency-Key is kept on the server from about then. */
  firstSentAt?: number
  lastError?: string
  /** The 2xx answer body, to tell when a pull has caught up. */
  answer?: unknown
  /** When the 2xx answer came. */
  appliedAt?: number
  /** Complete pulls since the answer came. */
  pullsSinceApplied?: number
}

/** One change an optimistic write makes to a row; applied in outbox order. */
export type OverlayOp = {
  /** The whole row, when there is none yet (created offline). A synced row wins. */
  create?: Record<string, unknown>
  /** Fields to set; a key may be a dotted path (`topic.status`). */
  set?: Record<string, unknown>
  /** Numbers to add to. */
  inc?: Record<string, number>
  /** Booleans to flip. */
  flip?: string[]
}

export type OverlayRow = RowRef & {
  mutationId: string
  /** The outbox seq of the mutation: overlay changes apply in this order. */
  seq: number
  op: OverlayOp
  awaitingConfirmation: boolean
}

export type RejectedRow = {
  /** The mutation id. */
  id: string
  kind: MutationKind
  label: string
  method: string
  path: string
  body?: unknown
  targets: RowRef[]
  /** The HTTP status the server (or the client, for a stale mutation) gave. */
  status: number
  /** The sentence to show: the server's `detail`. */
  detail: string
  errors?: FieldError[]
  createdAt: number
  rejectedAt: number
}

type MetaRow = { key: string; value: unknown }

/**
 * One pull page's rows of one packed table, from a first sync (packs.ts):
 * `removed` first, then `rows`; later packs (higher seq) over earlier ones.
 */
type PackRow = {
  /** Auto-increment: the order the pages were written in. */
  seq?: number
  table: string
  rows: Record<string, unknown>[]
  removed: string[]
}

/** A packed table's row removed by a pull after the first sync (packs.ts). */
type GoneRow = { table: string; id: string }

export type SyncDb = Dexie & {
  topics: Table<SyncTopic, string>
  applications: Table<SyncApplication, string>
  feedback: Table<SyncFeedback, string>
  notifications: Table<SyncNotification, string>
  users: Table<SyncUser, string>
  interests: Table<SyncInterest, string>
  dismissals: Table<SyncDismissal, string>
  invitations: Table<SyncInvitation, string>
  preferences: Table<PreferencesRow, string>
  settings: Table<SettingsRow, string>
  outbox: Table<OutboxRow, number>
  overlay: Table<OverlayRow, [string, string, string]>
  rejected: Table<RejectedRow, string>
  meta: Table<MetaRow, string>
  packs: Table<PackRow, number>
  gone: Table<GoneRow, [string, string]>
}

type SchemaVersion = {
  version: number
  stores: Record<string, string | null>
  upgrade?: (tx: Transaction) => PromiseLike<unknown> | undefined
}

/**
 * Every schema version, oldest first. Add a version (never edit an old one)
 * with the stores that change and an `upgrade` that moves the data; add a
 * fixture for the version it replaces in db.test.ts.
 */
export const SCHEMA_VERSIONS: readonly SchemaVersion[] = [
  {
    version: 1,
    stores: {
      topics: 'id, status, mentorId',
      applications: 'id, topicId, mentee.id',
      feedback: 'id, topicId',
      notifications: 'id, createdAt',
      users: 'id, username',
      interests: 'name',
      preferences: 'key',
      outbox: '++seq, &id, status',
      overlay: '[mutationId+table+rowId], mutationId, [table+rowId], table',
      rejected: 'id, rejectedAt',
      meta: 'key',
    },
  },
  {
    // The newest topics by index: a list paints its first screen without reading them all.
    version: 2,
    stores: { topics: 'id, status, mentorId, createdAt' },
  },
  {
    // Matching (issue 17): "Not interested" marks, invitations, the programme settings.
    // Users gained fields the server added without changing their versions, so
    // a delta pull would never bring them: sync again from the beginning (the
    // outbox stays; the first pull replaces the synced rows).
    version: 3,
    stores: {
      dismissals: 'topicId',
      invitations: 'id, topicId, menteeId',
      settings: 'key',
    },
    upgrade: (tx) => tx.table('meta').delete('cursor'),
  },
  {
    // Follow-through (issue 18): notifications gained topicId, snoozedUntil and
    // response, preferences their delivery settings, programme settings the
    // reminder thresholds and the pending limit, none with a new version: sync
    // again from the beginning, as version 3 did. Screens read a field still
    // missing on a cached row as null or as its default until then.
    version: 4,
    stores: {},
    upgrade: (tx) => tx.table('meta').delete('cursor'),
  },
  {
    // Live (issue 20): a mentor's dashboard reads the applications to their topics through
    // the mentor's id each application carries, at the same time as the topics, instead of
    // after them (one IndexedDB round trip less before a new application shows).
    version: 5,
    stores: { applications: 'id, topicId, mentee.id, topic.mentor.id' },
  },
  {
    // Issue 14: a first sync stores the rows of some tables as one record per pull page
    // (packs.ts, decision 0058). A device synced before keeps its rows one per record,
    // which read as they always did.
    version: 6,
    stores: { packs: '++seq, table', gone: '[table+id], table' },
  },
]

export const SCHEMA_VERSION = SCHEMA_VERSIONS.at(-1)?.version ?? 1

/**
 * Every store a pull page writes to besides `meta`, all cleared by a pull that
 * starts again: the synced tables, a first sync's packs and the removals since.
 */
export const PULLED_STORES = [...SYNC_TABLES, 'preferences', 'settings', 'packs', 'gone'] as const

export function databaseName(userId: string): string {
  return `pairwise-${userId}`
}

export type IndexedDbDeps = {
  indexedDB?: IDBFactory
  IDBKeyRange?: typeof IDBKeyRange
  /**
   * 'relaxed': Chrome reports a write done before it is on disk. Only for a
   * connection that writes nothing but pull pages (the page writer's): a page
   * lost to a crash is written with its cursor or not at all, and is pulled
   * again. Everything else is 'strict' (a queued change must survive a crash).
   */
  durability?: 'relaxed'
}

/**
 * The Dexie database of a user (not opened yet: Dexie opens on first use).
 * `upTo` declares only the versions up to that one (upgrade tests).
 */
export function createSyncDb(
  name: string,
  deps: IndexedDbDeps = {},
  upTo: number = SCHEMA_VERSION,
  extra: readonly SchemaVersion[] = [],
): SyncDb {
  const db = new Dexie(name, {
    // A write is reported done once it is on disk: a queued change survives a crash, not only a closed tab.
    chromeTransactionDurability: deps.durability ?? 'strict',
    ...(deps.indexedDB ? { indexedDB: deps.indexedDB } : {}),
    ...(deps.IDBKeyRange ? { IDBKeyRange: deps.IDBKeyRange } : {}),
  }) as SyncDb
  for (const v of declaredVersions(SCHEMA_VERSIONS.filter((v) => v.version <= upTo))) {
    const version = db.version(v.version).stores(v.stores)
    if (v.upgrade) version.upgrade(v.upgrade)
  }
  for (const v of extra) {
    const version = db.version(v.version).stores(v.stores)
    if (v.upgrade) version.upgrade(v.upgrade)
  }
  return db
}

/**
 * The versions Dexie is told of: those with an upgrade step, and the last,
 * each with the store changes of the versions left out before it. Dexie
 * upgrades from any installed version by comparing that database's own
 * stores and indexes with the next declared version, so a version with no
 * step needs no declaration; and each declaration costs every one before it
 * again (Dexie rebuilds its tables from all of them), which a new device
 * paid before its first card (six versions: some 20-30 ms of the main
 * thread on a slow host, more on a phone).
 */
export function declaredVersions(versions: readonly SchemaVersion[]): SchemaVersion[] {
  const declared: SchemaVersion[] = []
  let stores: SchemaVersion['stores'] = {}
  versions.forEach((v, i) => {
    stores = { ...stores, ...v.stores }
    if (!v.upgrade && i < versions.length - 1) return
    declared.push({ ...v, stores })
    stores = {}
  })
  return declared
}

/** Reads one metadata value. */
export async function getMeta<T>(db: SyncDb, key: string): Promise<T | undefined> {
  return (await db.meta.get(key))?.value as T | undefined
}

export async function setMeta(db: SyncDb, key: string, value: unknown): Promise<void> {
  await db.meta.put({ key, value })
}

/** Metadata keys. */
export const META = {
  cursor: 'cursor',
  lastSyncedAt: 'lastSyncedAt',
  needsSignIn: 'needsSignIn',
  clientId: 'clientId',
} as const
