import { useCallback } from 'react'
import { PREFERENCES_SAVE_FAILED } from '../../../../shared/constants.ts'
import { useChange } from '../../lib/use-change.ts'
import { useMutations } from '../../sync/engine/react.ts'
import type { PreferencesChange } from '../../sync/mutators/users.ts'

/**
 * Saves one change of the preferences at once (spec section 2): merged with
 * the current preferences by the mutator, shown before the server answers,
 * with the spec's "Preferences Updated" toast or its failure text.
 */
export function useSavePreferences() {
  const mutate = useMutations()
  const change = useChange()
  return useCallback(
    (next: PreferencesChange) =>
      change(() => mutate.savePreferences(next), {
        success: 'Your notification preferences have been saved.',
        successTitle: 'Preferences Updated',
        failure: PREFERENCES_SAVE_FAILED,
      }),
    [change, mutate],
  )
}
