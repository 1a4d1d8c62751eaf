// Small-cell suppression for programme insights (issue 19, docs/insights.md).
// Like the HR-analytics tools (Viva Glint, Lattice), no figure about fewer than
// MIN_GROUP_SIZE people is shown, and a breakdown never leaves exactly one cell
// hidden, so a hidden cell cannot be worked out by subtracting the others from
// the total. Figures over a period are sums of calendar months; a period figure
// shows only when every month of it shows, so comparing two periods tells
// nothing a month's own figures do not.

/** Groups smaller than this are shown as "fewer than 5". */
export const MIN_GROUP_SIZE = 5

/** What the screen and the CSV files say instead of a hidden figure. */
export const SUPPRESSED_LABEL = 'fewer than 5'

/** A count, or null where it is hidden. */
export type Count = number | null

export type RawCell = { key: string; count: number }
type Cell = { key: string; count: Count }
export type Breakdown = { total: Count; cells: Cell[] }

/** 1 to 4 people: too few to show. No one (0) singles nobody out. */
export function isSmall(count: number): boolean {
  return count > 0 && count < MIN_GROUP_SIZE
}

/**
 * Hides the small cells of one breakdown, and its total when small. When
 * exactly one cell is hidden, the next-smallest cell that has people in it is
 * hidden as well ("complementary suppression"). `forced` names cells to hide
 * whatever their size (a period cell whose months are not all shown).
 *
 * @example
 * suppress([{ key: 'a', count: 3 }, { key: 'b', count: 8 }, { key: 'c', count: 20 }], 31)
 * // → total 31; a and b hidden (b is the complement), c 20
 */
export function suppress(
  cells: RawCell[],
  total: number | null,
  forced: ReadonlySet<string> = new Set(),
): Breakdown {
  const hidden = new Set(
    cells.filter((c) => isSmall(c.count) || forced.has(c.key)).map((c) => c.key),
  )
  const totalHidden = total === null || isSmall(total)
  if (hidden.size === 1) {
    const complement = cells
      .filter((c) => !hidden.has(c.key))
      .sort(
        (a, b) =>
          (a.count > 0 ? a.count : Number.POSITIVE_INFINITY) -
          (b.count > 0 ? b.count : Number.POSITIVE_INFINITY),
      )[0]
    if (complement) hidden.add(complement.key)
  }
  return {
    total: totalHidden ? null : total,
    cells: cells.map((c) => ({ key: c.key, count: hidden.has(c.key) ? null : c.count })),
  }
}

/** A single figure: hidden when small. */
export function suppressCount(count: number): Count {
  return isSmall(count) ? null : count
}

/**
 * A breakdown over a period from the same breakdown in each of its months:
 * each month suppressed on its own, then a period cell (or the total) shown
 * only when it shows in every month, then suppressed again as a whole. Every
 * figure it shows is a sum of figures the months show.
 *
 * @param months each month's raw cells (the same keys in every month) and total
 */
export function suppressOverMonths(
  months: { cells: RawCell[]; total: number }[],
  keys: string[],
): {
  period: Breakdown
  months: Breakdown[]
} {
  const shownMonths = months.map((m) => suppress(m.cells, m.total))
  const forced = new Set<string>()
  const sums = keys.map((key) => {
    let count = 0
    for (const [i, m] of months.entries()) {
      count += m.cells.find((c) => c.key === key)?.count ?? 0
      const shown = shownMonths[i]?.cells.find((c) => c.key === key)
      if (shown && shown.count === null) forced.add(key)
    }
    return { key, count }
  })
  const everyTotalShown = shownMonths.every((m) => m.total !== null)
  const total = months.reduce((sum, m) => sum + m.total, 0)
  return { period: suppress(sums, everyTotalShown ? total : null, forced), months: shownMonths }
}

/** A single count over a period: shown when it shows in every month and is not small itself. */
export function countOverMonths(monthly: number[], period: number): Count {
  return monthly.every((n) => !isSmall(n)) ? suppressCount(period) : null
}

/** `part / whole` when both show, rounded to 4 places; null otherwise or when whole is 0. */
export function rateOf(part: Count, whole: Count): number | null {
  if (part === null || whole === null || whole === 0) return null
  return Math.round((part / whole) * 10_000) / 10_000
}

/** A figure as the screen and the CSV files write it. */
export function showCount(count: Count): string {
  return count === null ? SUPPRESSED_LABEL : String(count)
}
