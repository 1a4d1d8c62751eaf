import { describe, expect, it } from 'vitest'
import type { Actor, Decision } from './decision.ts'
import {
  checkEditProfile,
  checkToggleAdmin,
  initialsOf,
  updateProfileSchema,
  usernameSchema,
} from './user.ts'

const USER: Actor = { id: 'user-1', isAdmin: false }
const OTHER: Actor = { id: 'user-2', isAdmin: false }
const ADMIN: Actor = { id: 'admin-1', isAdmin: true }

function outcome(d: Decision): 'ok' | 403 | 409 {
  return d.ok ? 'ok' : d.status
}

describe('updateProfileSchema', () => {
  it.each([
    [{}, {}],
    [{ seniority: 'junior' }, { seniority: 'junior' }],
    [{ seniority: 'mid' }, { seniority: 'mid' }],
    [{ seniority: 'senior' }, { seniority: 'senior' }],
    [{ seniority: null }, { seniority: null }],
    [{ bio: '' }, { bio: '' }],
    [{ bio: 'I like graphs.' }, { bio: 'I like graphs.' }],
    [{ interests: [] }, { interests: [] }],
    [{ interests: [' Go ', 'go', 'SQL'] }, { interests: ['Go', 'SQL'] }],
    [
      { seniority: 'senior', bio: 'Hi', interests: ['Rust'] },
      { seniority: 'senior', bio: 'Hi', interests: ['Rust'] },
    ],
  ])('accepts %j as %j', (input, expected) => {
    expect(updateProfileSchema.parse(input)).toEqual(expected)
  })

  it.each([
    ['an unknown seniority', { seniority: 'lead' }, 'seniority'],
    ['a capitalised seniority', { seniority: 'Junior' }, 'seniority'],
    ['a non-string bio', { bio: 5 }, 'bio'],
    ['a null bio', { bio: null }, 'bio'],
    ['a non-array interests', { interests: 'Go' }, 'interests'],
    ['an empty interest', { interests: [' '] }, 'interests.0'],
  ])('refuses %s', (_label, input, path) => {
    const result = updateProfileSchema.safeParse(input)
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((i) => i.path.join('.'))).toContain(path)
  })

  it('gives the seniority message for a bad seniority', () => {
    const result = updateProfileSchema.safeParse({ seniority: 'guru' })
    expect(result.error?.issues[0]?.message).toBe('Seniority must be one of junior, mid or senior')
  })

  it.each([{ isAdmin: true }, { username: 'someone' }, { full_name: 'X' }])(
    'refuses the unknown key in %j (strict)',
    (input) => {
      const result = updateProfileSchema.safeParse(input)
      expect(result.success).toBe(false)
      expect(result.error?.issues.some((i) => i.code === 'unrecognized_keys')).toBe(true)
    },
  )
})

describe('usernameSchema', () => {
  it.each([
    ['ada', 'ada'],
    ['  ada  ', 'ada'],
    ['ada.lovelace@example.com', 'ada.lovelace@example.com'],
    ['a_b-c.d', 'a_b-c.d'],
    ['A1', 'A1'],
    ['x'.repeat(64), 'x'.repeat(64)],
  ])('accepts %j as %j', (input, expected) => {
    expect(usernameSchema.parse(input)).toBe(expected)
  })

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['with a space inside', 'ada lovelace'],
    ['with a slash', 'ada/lovelace'],
    ['with a question mark', 'ada?'],
    ['non-ASCII', 'adé'],
    ['too long', 'x'.repeat(65)],
  ])('refuses a username %s', (_label, input) => {
    expect(usernameSchema.safeParse(input).success).toBe(false)
  })

  it('says a username is required when blank', () => {
    expect(usernameSchema.safeParse('  ').error?.issues[0]?.message).toBe('Username is required')
  })
})

describe('checkEditProfile', () => {
  it.each([
    ['the owner', USER, 'ok'],
    ['an admin editing another user', ADMIN, 'ok'],
    ['another user', OTHER, 403],
  ] as const)('%s → %s', (_label, actor, expected) => {
    expect(outcome(checkEditProfile(actor, USER.id))).toBe(expected)
  })
})

describe('checkToggleAdmin', () => {
  it.each([
    ['a non-admin on another user', USER, OTHER.id, 403],
    ['a non-admin on themselves', USER, USER.id, 403],
    ['an admin on themselves', ADMIN, ADMIN.id, 403],
    ['an admin on another user', ADMIN, USER.id, 'ok'],
  ] as const)('%s → %s', (_label, actor, target, expected) => {
    const d = checkToggleAdmin(actor, target)
    expect(outcome(d)).toBe(expected)
    if (!d.ok) expect(d.reason).not.toBe('')
  })
})

describe('initialsOf', () => {
  it.each([
    ['Ada Lovelace', 'ada', 'AL'],
    ['ada lovelace', 'ada', 'AL'],
    ['Ada King Lovelace', 'ada', 'AL'],
    ['  Ada   Lovelace  ', 'ada', 'AL'],
    ['Plato', 'plato', 'PL'],
    ['', 'grace', 'GR'],
    ['   ', 'grace', 'GR'],
    ['', 'g', 'G'],
  ])('initialsOf(%j, %j) is %j', (fullName, username, expected) => {
    expect(initialsOf(fullName, username)).toBe(expected)
  })
})
