import { liveQuery } from 'dexie'
import type { SyncDb } from '../sync/engine/db.ts'

/** What became of a queued change: saved by the server, refused (with its reason), or not known yet. */
export type Outcome =
  | { kind: 'saved' }
  | { kind: 'refused'; detail: string; status: number }
  | { kind: 'waiting' }

/**
 * Waits up to `timeoutMs` for the server's answer to one queued mutation: it
 * is saved once its outbox row has a 2xx answer (or has left the outbox
 * without a refusal), refused once it is in the refused list.
 */
export function waitForOutcome(
  db: SyncDb,
  mutationId: string,
  timeoutMs: number,
): Promise<Outcome> {
  return new Promise((resolve) => {
    let settled = false
    const finish = (outcome: Outcome) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      subscription.unsubscribe()
      resolve(outcome)
    }
    const timer = setTimeout(() => finish({ kind: 'waiting' }), timeoutMs)
    const subscription = liveQuery(() =>
      db.transaction('r', [db.outbox, db.rejected], async () => ({
        row: await db.outbox.get({ id: mutationId }),
        refused: await db.rejected.get(mutationId),
      })),
    ).subscribe({
      next: ({ row, refused }) => {
        if (refused)
          return finish({ kind: 'refused', detail: refused.detail, status: refused.status })
        if (!row || row.status === 'applied') finish({ kind: 'saved' })
      },
      error: () => finish({ kind: 'waiting' }),
    })
  })
}
