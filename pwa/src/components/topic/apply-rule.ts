import { useMemo } from 'react'
import { canApply, type PendingLimit, pendingLimitMessage } from '../../../../shared/application.ts'
import type { Actor } from '../../../../shared/decision.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import { useSynced } from '../../sync/engine/react.ts'
import { readPendingLimit } from '../../sync/engine/view.ts'

type ApplyTopic = Parameters<typeof canApply>[1]

/**
 * Whether the Apply button is offered (spec section 5 and issue 18's limit):
 * `apply`, or `limited` with the sentence to show where the button would be,
 * or `none` (the topic is not open to this person).
 */
export type ApplyOffer = { kind: 'apply' } | { kind: 'limited'; message: string } | { kind: 'none' }

export function applyOffer(
  actor: Actor,
  topic: ApplyTopic,
  hasApplication: boolean,
  pendingLimit: PendingLimit | undefined,
): ApplyOffer {
  if (!canApply(actor, topic, hasApplication)) return { kind: 'none' }
  if (pendingLimit && !canApply(actor, topic, hasApplication, pendingLimit)) {
    return { kind: 'limited', message: pendingLimitMessage(pendingLimit.limit ?? 0) }
  }
  return { kind: 'apply' }
}

/**
 * The signed-in person's pending applications and the programme's limit,
 * live from IndexedDB (offline too); the same object while they stay the same.
 */
export function usePendingLimit(): PendingLimit | undefined {
  const me = useCurrentUser()
  const read = useSynced((db) => readPendingLimit(db, me.id), [me.id])
  const pending = read?.pending
  const limit = read?.limit
  return useMemo(
    () => (pending === undefined || limit === undefined ? undefined : { pending, limit }),
    [pending, limit],
  )
}
