/**
 * A count with its thousands grouped ("10,000"), as Intl.NumberFormat('en') writes it. Not
 * Intl itself: the first Intl call of a page loads ICU's data (50-60 ms on a slow host,
 * more on a phone), and this line is drawn with the list's first cards.
 */
export function groupThousands(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+$)/g, ',')
}
