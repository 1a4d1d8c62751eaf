import type { Preferences, QuietHours } from './preferences.ts'

/**
 * When pushes and e-mails may reach a person (issue 18): quiet hours and
 * weekends in their own time zone, their local day (for the daily noise
 * budget and the one digest a day), and when their digest is due. Pure, so
 * the server's worker and the PWA's settings screen agree.
 */

/** A moment as the clock on the person's wall shows it. */
export type LocalTime = {
  /** YYYY-MM-DD, the person's local calendar day. */
  date: string
  hour: number
  minute: number
  /** Saturday or Sunday. */
  weekend: boolean
}

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      weekday: 'short',
    })
    formatters.set(timeZone, f)
  }
  return f
}

/** The local calendar day, hour and weekday of `at` in `timeZone` (UTC when null). */
export function localTime(at: Date, timeZone: string | null): LocalTime {
  const parts: Record<string, string> = {}
  for (const p of formatter(timeZone ?? 'UTC').formatToParts(at)) parts[p.type] = p.value
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    weekend: parts.weekday === 'Sat' || parts.weekday === 'Sun',
  }
}

/** Whether a local time falls in the quiet hours (from..to, across midnight when from > to) or a quiet weekend. */
export function inQuietHours(quiet: QuietHours, local: LocalTime): boolean {
  if (!quiet.enabled) return false
  if (quiet.weekends && local.weekend) return true
  return quiet.from < quiet.to
    ? local.hour >= quiet.from && local.hour < quiet.to
    : local.hour >= quiet.from || local.hour < quiet.to
}

type DeliveryPrefs = Pick<Preferences, 'timeZone' | 'quietHours'>

/**
 * Whether the person is in their quiet hours at `at`. Until the person's
 * time zone is known (their browser reports it on first use) there is no
 * night to place, so nothing is held.
 */
export function isQuiet(prefs: DeliveryPrefs, at: Date): boolean {
  if (prefs.timeZone === null) return false
  return inQuietHours(prefs.quietHours, localTime(at, prefs.timeZone))
}

const QUARTER_HOUR_MS = 15 * 60 * 1000
/** A weekend plus a night is under 3 days; a week covers any setting. */
const SEARCH_LIMIT = 7 * 24 * 4

/**
 * The first moment at or after `at` outside the person's quiet hours: `at`
 * itself when it is not quiet, else the local hour quiet ends (time zones
 * are offset by whole quarter hours, so quiet ends on a quarter-hour in UTC).
 */
export function nextSendTime(prefs: DeliveryPrefs, at: Date): Date {
  if (!isQuiet(prefs, at)) return at
  let t = Math.floor(at.getTime() / QUARTER_HOUR_MS) * QUARTER_HOUR_MS
  for (let i = 0; i < SEARCH_LIMIT; i++) {
    t += QUARTER_HOUR_MS
    if (!isQuiet(prefs, new Date(t))) return new Date(t)
  }
  // Quiet all week (weekends and a 23-hour night): the settings leave no gap; send.
  return at
}

/**
 * Whether the person's daily digest may go at `at`: their digest hour has
 * come today and they are not in quiet hours. (Whether one went today
 * already, and whether there is anything to say, the caller knows.)
 */
export function digestDue(
  prefs: DeliveryPrefs & Pick<Preferences, 'digestHour'>,
  at: Date,
): boolean {
  const local = localTime(at, prefs.timeZone)
  if (local.hour < prefs.digestHour) return false
  return !isQuiet(prefs, at)
}
