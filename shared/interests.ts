import { z } from 'zod'
import { INTEREST_MAX_LENGTH, INTERESTS_MAX_COUNT } from './constants.ts'

/** One interest or tag: trimmed, non-empty, short. */
const interestSchema = z
  .string()
  .trim()
  .min(1, 'Interests cannot be empty')
  .max(INTEREST_MAX_LENGTH, `An interest can have at most ${INTEREST_MAX_LENGTH} characters`)

/** A list of interests; duplicates (ignoring case) are dropped, first spelling wins. */
export const interestListSchema = z
  .array(interestSchema)
  .max(INTERESTS_MAX_COUNT, `At most ${INTERESTS_MAX_COUNT} interests`)
  .transform(dedupeInterests)

export function dedupeInterests(values: readonly string[]): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const value of values) {
    const key = value.trim().toLowerCase()
    if (key === '' || seen.has(key)) continue
    seen.add(key)
    out.push(value.trim())
  }
  return out
}

/**
 * What the interests picker does with a typed value (spec section 5): add it
 * only when non-empty and not already selected.
 */
export function addInterest(selected: readonly string[], typed: string): string[] {
  const value = typed.trim()
  if (value === '') return [...selected]
  if (selected.some((s) => s.toLowerCase() === value.toLowerCase())) return [...selected]
  return [...selected, value]
}

export const interestsResponseSchema = z.array(z.string())
