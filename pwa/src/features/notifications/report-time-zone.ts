import { useEffect, useRef } from 'react'
import { isTimeZone } from '../../../../shared/preferences.ts'
import { useMutations, usePreferences } from '../../sync/engine/react.ts'

/** The browser's IANA time zone, or null when it reports none this app can use. */
function browserTimeZone(): string | null {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
  return zone && isTimeZone(zone) ? zone : null
}

/**
 * The browser reports the time zone (issue 18): once the synced preferences
 * are there and have none, this device's zone is saved through the
 * preferences mutator, quietly (an outbox row: offline too). Digests and
 * quiet hours then follow the person's own clock.
 */
export function useReportTimeZone(): void {
  const preferences = usePreferences()
  const mutate = useMutations()
  const reported = useRef(false)
  useEffect(() => {
    if (reported.current || !preferences || preferences.sync.pending) return
    if (preferences.timeZone !== null) return
    const timeZone = browserTimeZone()
    if (!timeZone) return
    reported.current = true
    // A refusal (none expected) is in the "could not be saved" list; nothing to tell here.
    mutate.savePreferences({ timeZone }).catch(() => {})
  }, [preferences, mutate])
}
