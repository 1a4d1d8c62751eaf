import { afterEach, beforeEach, expect, vi } from 'vitest'

/**
 * Vitest setup: a test fails when it writes to console.error or console.warn
 * (React's and act()'s warnings included) unless it said it expects that
 * output with `expectConsole`. Unexpected warnings are bugs nobody reads.
 *
 * @example
 * expectConsole('error', /Unhandled error on POST/)
 */

type Level = 'error' | 'warn'
const LEVELS: Level[] = ['error', 'warn']

let seen: { level: Level; text: string }[] = []
let expected: { level: Level; pattern: RegExp }[] = []

function format(args: unknown[]): string {
  return args
    .map((a) =>
      a instanceof Error ? (a.stack ?? a.message) : typeof a === 'string' ? a : String(a),
    )
    .join(' ')
}

/** Allows console output of `level` matching `pattern` in the current test. */
export function expectConsole(level: Level, pattern: RegExp): void {
  expected.push({ level, pattern })
}

beforeEach(() => {
  seen = []
  expected = []
  for (const level of LEVELS) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      seen.push({ level, text: format(args) })
    })
  }
})

afterEach(() => {
  for (const level of LEVELS) vi.mocked(console[level]).mockRestore()
  const unexpected = seen.filter(
    (s) => !expected.some((e) => e.level === s.level && e.pattern.test(s.text)),
  )
  expect(
    unexpected.map((u) => `console.${u.level}: ${u.text.slice(0, 500)}`),
    'unexpected console output (use expectConsole() where a test means it)',
  ).toEqual([])
})
