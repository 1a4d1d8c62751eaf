import { useEffect, useState } from 'react'
import {
  DEFAULT_PROGRAMME_SETTINGS,
  MATCH_FACTOR_LABELS,
  MATCH_FACTORS,
  type MatchWeights,
  REMINDER_STAGE_LABELS,
  REMINDER_STAGES,
  type ReminderSettings,
  type SettingsChange,
  settingsChangeSchema,
} from '../../../../shared/programme-settings.ts'
import { Card, CardBody } from '../../components/ui/card.tsx'
import { formatDateTime } from '../../lib/format.ts'
import { BROWSER_HTTP, request } from '../../lib/http.ts'
import { CONCLUDE_LABEL, daysText, limitText, monthsText } from './settings-words.ts'

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

const SETTING_NAMES: Record<SettingsChange['setting'], string> = {
  matchWeights: 'the match weights',
  reminders: 'the reminders',
  programmeLengthMonths: 'the programme length',
  pendingApplicationLimit: 'the limit of pending applications',
}

/** A logged change in words: what each changed value was, and is. */
function describeChange(change: SettingsChange): string {
  switch (change.setting) {
    case 'matchWeights': {
      const before = (change.before ??
        DEFAULT_PROGRAMME_SETTINGS.matchWeights) as Partial<MatchWeights>
      const after = (change.after ?? {}) as Partial<MatchWeights>
      const parts = MATCH_FACTORS.filter((f) => before[f] !== after[f]).map(
        (f) => `${MATCH_FACTOR_LABELS[f]} ${before[f] ?? '–'} → ${after[f] ?? '–'}`,
      )
      return parts.length > 0 ? parts.join(', ') : 'No weight changed'
    }
    case 'reminders': {
      const before = (change.before ??
        DEFAULT_PROGRAMME_SETTINGS.reminders) as Partial<ReminderSettings>
      const after = (change.after ?? {}) as Partial<ReminderSettings>
      const parts = REMINDER_STAGES.filter((s) => before[s] !== after[s]).map(
        (s) => `${REMINDER_STAGE_LABELS[s].label}: ${daysText(before[s])} → ${daysText(after[s])}`,
      )
      if (before.concludeAtProgrammeEnd !== after.concludeAtProgrammeEnd) {
        parts.push(
          `${CONCLUDE_LABEL}: ${onOff(before.concludeAtProgrammeEnd)} → ${onOff(after.concludeAtProgrammeEnd)}`,
        )
      }
      return parts.length > 0 ? parts.join(', ') : 'No reminder changed'
    }
    case 'programmeLengthMonths':
      return `Programme length: ${monthsText(change.before ?? DEFAULT_PROGRAMME_SETTINGS.programmeLengthMonths)} → ${monthsText(change.after)}`
    case 'pendingApplicationLimit':
      return `Pending applications per mentee: ${limitText(change.before)} → ${limitText(change.after)}`
  }
}

const onOff = (value: unknown) => (value === true ? 'On' : value === false ? 'Off' : '–')
