import { describe, expect, it } from 'vitest'
import { INTEREST_MAX_LENGTH, INTERESTS_MAX_COUNT } from './constants.ts'
import { addInterest, dedupeInterests, interestListSchema } from './interests.ts'

describe('addInterest (spec section 5: non-empty and not already selected)', () => {
  it.each([
    ['adds a new value', ['Go'], 'Rust', ['Go', 'Rust']],
    ['adds to an empty list', [], 'Rust', ['Rust']],
    ['trims the typed value', ['Go'], '  Rust  ', ['Go', 'Rust']],
    ['ignores an empty value', ['Go'], '', ['Go']],
    ['ignores a whitespace value', ['Go'], ' \t\n ', ['Go']],
    ['ignores an exact duplicate', ['Go', 'Rust'], 'Rust', ['Go', 'Rust']],
    ['ignores a duplicate in another case', ['Go', 'Rust'], 'rUST', ['Go', 'Rust']],
    ['ignores a padded duplicate', ['Go'], '  go ', ['Go']],
  ])('%s', (_label, selected, typed, expected) => {
    expect(addInterest(selected, typed)).toEqual(expected)
  })

  it('never mutates the selected list and always returns a new array', () => {
    const selected = Object.freeze(['Go'])
    const added = addInterest(selected, 'Rust')
    const same = addInterest(selected, 'go')
    expect(selected).toEqual(['Go'])
    expect(added).not.toBe(selected)
    expect(same).not.toBe(selected)
  })
})

describe('dedupeInterests', () => {
  it.each([
    [[], []],
    [['Go'], ['Go']],
    [['Go', 'go', 'GO'], ['Go']],
    [
      ['  Rust ', 'rust', 'Go'],
      ['Rust', 'Go'],
    ],
    [['', '  ', 'SQL'], ['SQL']],
    [
      ['b', 'a', 'B'],
      ['b', 'a'],
    ],
  ])('dedupeInterests(%j) is %j', (input, expected) => {
    expect(dedupeInterests(input)).toEqual(expected)
  })
})

describe('interestListSchema', () => {
  it('trims and dedupes ignoring case, first spelling wins', () => {
    expect(interestListSchema.parse(['  TypeScript ', 'typescript', 'React'])).toEqual([
      'TypeScript',
      'React',
    ])
  })

  it('accepts an empty list', () => {
    expect(interestListSchema.parse([])).toEqual([])
  })

  it.each([
    ['an empty interest', [''], 'Interests cannot be empty'],
    ['a blank interest', ['Go', '   '], 'Interests cannot be empty'],
    [
      'an over-long interest',
      ['x'.repeat(INTEREST_MAX_LENGTH + 1)],
      `An interest can have at most ${INTEREST_MAX_LENGTH} characters`,
    ],
  ])('refuses %s', (_label, input, message) => {
    const result = interestListSchema.safeParse(input)
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((i) => i.message)).toEqual([message])
  })

  it('accepts an interest of exactly the maximum length', () => {
    const long = 'x'.repeat(INTEREST_MAX_LENGTH)
    expect(interestListSchema.parse([long])).toEqual([long])
  })

  it('accepts the maximum count and refuses one more', () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => `topic ${i}`)
    expect(interestListSchema.parse(list(INTERESTS_MAX_COUNT))).toHaveLength(INTERESTS_MAX_COUNT)
    expect(interestListSchema.safeParse(list(INTERESTS_MAX_COUNT + 1)).success).toBe(false)
  })

  it.each([
    ['a string', 'Go'],
    ['a number', 42],
    ['a list holding a number', ['Go', 3]],
    ['null', null],
  ])('refuses %s', (_label, input) => {
    expect(interestListSchema.safeParse(input).success).toBe(false)
  })
})
