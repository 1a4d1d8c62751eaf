/** How the programme settings and their log word values (issue 18). */

export const CONCLUDE_LABEL = 'Remind the mentor to conclude at the end of the programme'

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** 3 → "3 days"; null → "Off". */
export function daysText(value: unknown): string {
  if (value === null) return 'Off'
  return typeof value === 'number' ? plural(value, 'day', 'days') : '–'
}

export function monthsText(value: unknown): string {
  return typeof value === 'number' ? plural(value, 'month', 'months') : '–'
}

/** null → "No limit"; 2 → "At most 2". */
export function limitText(value: unknown): string {
  if (value === null || value === undefined) return 'No limit'
  return typeof value === 'number' ? `At most ${value}` : '–'
}
