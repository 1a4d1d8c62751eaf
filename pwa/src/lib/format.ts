const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })

/** "21 Nov 2026, 14:05" in the user's locale. */
export function formatDateTime(value: string | number | Date): string {
  return dateTime.format(new Date(value))
}

/** "21 Nov 2026". */
export function formatDate(value: string | number | Date): string {
  return date.format(new Date(value))
}

/** "just now", "5 minutes ago", "yesterday"… */
export function timeAgo(value: string | number | Date, now = Date.now()): string {
  const seconds = Math.round((new Date(value).getTime() - now) / 1000)
  const abs = Math.abs(seconds)
  if (abs < 45) return 'just now'
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute')
  if (abs < 86_400) return relative.format(Math.round(seconds / 3600), 'hour')
  if (abs < 30 * 86_400) return relative.format(Math.round(seconds / 86_400), 'day')
  return formatDate(value)
}
