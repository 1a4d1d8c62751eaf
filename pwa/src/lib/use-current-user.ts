import type { User } from '../../../shared/user.ts'
import { useSyncedRow } from '../sync/engine/react.ts'
import { useSignedIn } from './session.tsx'

/**
 * The signed-in user as this device knows them now: the synced row (which
 * follows profile edits and admin toggles) over the sign-in answer.
 */
export function useCurrentUser(): User {
  const { user } = useSignedIn()
  const synced = useSyncedRow('users', user.id)
  return synced ?? user
}
