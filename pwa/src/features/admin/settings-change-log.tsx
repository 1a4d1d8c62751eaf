import { useEffect, useState } from 'react'
import { type SettingsChange, settingsChangeSchema } from '../../../../shared/programme-settings.ts'
import { Card, CardBody } from '../../components/ui/card.tsx'
import { formatDateTime } from '../../lib/format.ts'
import { BROWSER_HTTP, request } from '../../lib/http.ts'
import { describeChange, SETTING_NAMES } from './settings-words.ts'

/** The logged changes (online: the log is not synced). */
export function ChangeLog(props: { version: string | null }) {
  const [state, setState] = useState<
    { kind: 'loading' } | { kind: 'offline' } | { kind: 'ready'; changes: SettingsChange[] }
  >({ kind: 'loading' })
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again when the settings change.
  useEffect(() => {
    let stopped = false
    request(BROWSER_HTTP, 'GET', '/api/admin/settings/changes', undefined)
      .then((answer) => {
        if (stopped) return
        const parsed = settingsChangeSchema.array().safeParse(answer.body)
        setState(
          answer.status === 200 && parsed.success
            ? { kind: 'ready', changes: parsed.data }
            : { kind: 'offline' },
        )
      })
      .catch(() => {
        if (!stopped) setState({ kind: 'offline' })
      })
    return () => {
      stopped = true
    }
  }, [props.version])
  return (
    <Card>
      <CardBody>
        <h2 className="text-base font-semibold text-slate-900 dark:text-white">Changes</h2>
        {state.kind === 'loading' && (
          <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">Loading…</p>
        )}
        {state.kind === 'offline' && (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            The list of changes is shown when you are online.
          </p>
        )}
        {state.kind === 'ready' &&
          (state.changes.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
              No changes yet: the programme uses the default settings.
            </p>
          ) : (
            <ul className="mt-3 space-y-3 text-sm" aria-label="Changes">
              {state.changes.map((c) => (
                <li key={c.id}>
                  <p className="text-slate-900 dark:text-white">
                    <span className="font-medium">
                      {c.changedBy.full_name || c.changedBy.username}
                    </span>{' '}
                    changed {SETTING_NAMES[c.setting]}
                  </p>
                  <p className="text-slate-600 dark:text-slate-400">
                    {describeChange(c)} · {formatDateTime(c.changedAt)}
                  </p>
                </li>
              ))}
            </ul>
          ))}
      </CardBody>
    </Card>
  )
}
