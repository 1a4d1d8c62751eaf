import { META, type SyncDb } from './db.ts'

/** What a flush needs to know before it talks to the server. */
export type FlushStart = {
  /** The session ended (a 401) and nothing syncs until the person signs in again. */
  needsSignIn: boolean
  /** This client's id, if it has one yet. */
  clientId: string | undefined
  /** Mutations to push: queued, or sent without a known answer. */
  unsent: number
  /** Applied mutations waiting for a pull to show their effect (their seqs). */
  applied: number[]
  /** Where the last pull ended; undefined before the first. */
  cursor: string | undefined
}

/**
 * Reads it in one transaction, under the sync lock. A poke's flush usually has nothing to push
 * and goes straight to the pull, and each IndexedDB transaction costs a few
 * milliseconds (more while the screens re-read after a write): one read here
 * instead of one per question lets the pull start that much sooner.
 */
export function readFlushStart(db: SyncDb): Promise<FlushStart> {
  return db.transaction('r', [db.meta, db.outbox], () => askFlushStart(db))
}

/**
 * The reads of readFlushStart, asked for at once in the transaction that
 * calls it (it must cover `meta` and `outbox`).
 */
export async function askFlushStart(db: SyncDb): Promise<FlushStart> {
  const [needsSignIn, clientId, cursor, unsent, applied] = await Promise.all([
    db.meta.get(META.needsSignIn),
    db.meta.get(META.clientId),
    db.meta.get(META.cursor),
    db.outbox.where('status').anyOf('queued', 'sent').count(),
    db.outbox.where('status').equals('applied').primaryKeys(),
  ])
  return {
    needsSignIn: needsSignIn?.value === true,
    clientId: clientId?.value as string | undefined,
    cursor: cursor?.value as string | undefined,
    unsent,
    applied: applied as number[],
  }
}

/**
 * Whether a poke's flush may write its early pull page without reading where
 * it stands first (issue 20): it asked from `cursor` with client `clientId`,
 * and nothing is to be pushed. The pull checks this in the page's own write
 * transaction (`start`, read there before the writes) and starts over the
 * usual way when it does not hold.
 */
export function startsAsPlanned(
  start: FlushStart,
  plan: { cursor: string; clientId: string },
): boolean {
  return (
    !start.needsSignIn &&
    start.unsent === 0 &&
    start.cursor === plan.cursor &&
    start.clientId === plan.clientId
  )
}
