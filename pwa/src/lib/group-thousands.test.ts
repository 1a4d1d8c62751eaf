import { expect, it } from 'vitest'
import { groupThousands } from './group-thousands.ts'

it('writes a count as Intl.NumberFormat("en") does', () => {
  const intl = new Intl.NumberFormat('en')
  for (const n of [0, 1, 12, 999, 1_000, 9_999, 10_000, 12_345, 100_000, 1_234_567, -4_321]) {
    expect(groupThousands(n)).toBe(intl.format(n))
  }
})
