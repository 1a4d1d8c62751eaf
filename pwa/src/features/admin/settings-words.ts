import {
  DEFAULT_PROGRAMME_SETTINGS,
  MATCH_FACTOR_LABELS,
  MATCH_FACTORS,
  type MatchWeights,
  REMINDER_STAGE_LABELS,
  REMINDER_STAGES,
  type ReminderSettings,
  type SettingsChange,
} from '../../../../shared/programme-settings.ts'

/** How the programme settings and their log put values into words (issue 18). */

export const CONCLUDE_LABEL = 'Remind the mentor to conclude at the end of the programme'

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** 3 → "3 days"; null → "Off". */
function daysText(value: unknown): string {
  if (value === null) return 'Off'
  return typeof value === 'number' ? plural(value, 'day', 'days') : '–'
}

function monthsText(value: unknown): string {
  return typeof value === 'number' ? plural(value, 'month', 'months') : '–'
}

/** null → "No limit"; 2 → "At most 2". */
function limitText(value: unknown): string {
  if (value === null || value === undefined) return 'No limit'
  return typeof value === 'number' ? `At most ${value}` : '–'
}

/** What each logged setting is called in "… changed the …". */
export const SETTING_NAMES: Record<SettingsChange['setting'], string> = {
  matchWeights: 'the match weights',
  reminders: 'the reminders',
  programmeLengthMonths: 'the programme length',
  pendingApplicationLimit: 'the limit of pending applications',
}

/** A logged change in words: what each changed value was, and is. */
export function describeChange(change: SettingsChange): string {
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
