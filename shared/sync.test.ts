import { describe, expect, it } from 'vitest'
import {
  PULL_LIMIT_DEFAULT,
  PULL_LIMIT_MAX,
  PUSH_MAX_MUTATIONS,
  pullQuerySchema,
  pushOutcome,
  pushRequestSchema,
  syncInterestSchema,
  syncUserSchema,
} from './sync.ts'

const mutation = { id: 'm-1', method: 'POST', path: '/api/topics', body: { subject: 'x' } }

describe('pushOutcome', () => {
  it.each([
    [200, 'applied'],
    [201, 'applied'],
    [400, 'refused'],
    [403, 'refused'],
    [404, 'refused'],
    [409, 'refused'],
    [413, 'refused'],
    [422, 'refused'],
    [401, 'retry'],
    [429, 'retry'],
    [500, 'retry'],
    [503, 'retry'],
  ] as const)('%i: %s', (status, outcome) => {
    expect(pushOutcome(status)).toBe(outcome)
  })
})

describe('pushRequestSchema', () => {
  it('takes a batch of mutations, with or without bodies', () => {
    const { id: _, ...withoutId } = mutation
    expect(
      pushRequestSchema.safeParse({
        clientId: 'tab',
        mutations: [mutation, { ...mutation, id: 'm-2', body: undefined }],
      }).success,
    ).toBe(true)
    expect(pushRequestSchema.safeParse({ clientId: 'tab', mutations: [withoutId] }).success).toBe(
      false,
    )
  })

  it(`refuses more than ${PUSH_MAX_MUTATIONS} mutations, unknown fields and a missing clientId`, () => {
    const many = Array.from({ length: PUSH_MAX_MUTATIONS + 1 }, (_, i) => ({
      ...mutation,
      id: `m-${i}`,
    }))
    expect(pushRequestSchema.safeParse({ clientId: 'tab', mutations: many }).success).toBe(false)
    expect(
      pushRequestSchema.safeParse({ clientId: 'tab', mutations: [{ ...mutation, at: 1 }] }).success,
    ).toBe(false)
    expect(pushRequestSchema.safeParse({ mutations: [] }).success).toBe(false)
    expect(
      pushRequestSchema.safeParse({ clientId: 'tab', mutations: [{ ...mutation, id: '' }] })
        .success,
    ).toBe(false)
  })
})

describe('pullQuerySchema', () => {
  it('defaults the page size and reads it from a query string', () => {
    expect(pullQuerySchema.parse({})).toEqual({ limit: PULL_LIMIT_DEFAULT })
    expect(pullQuerySchema.parse({ cursor: 'abc', limit: '25' })).toEqual({
      cursor: 'abc',
      limit: 25,
    })
  })

  it.each(['0', String(PULL_LIMIT_MAX + 1), '2.5', 'many'])('refuses limit=%s', (limit) => {
    expect(pullQuerySchema.safeParse({ limit }).success).toBe(false)
  })
})

describe('synced rows', () => {
  it('carry their version', () => {
    expect(syncInterestSchema.safeParse({ name: 'Rust', version: 3 }).success).toBe(true)
    expect(syncInterestSchema.safeParse({ name: 'Rust' }).success).toBe(false)
    const user = {
      id: '00000000-0000-4000-8000-000000000001',
      username: 'ada',
      full_name: 'Ada',
      profileImage: null,
      seniority: null,
      bio: '',
      interests: [],
      isAdmin: false,
      lookingForMentor: false,
      preferredLocation: null,
      answersWithinDays: null,
      hasMentor: false,
    }
    expect(syncUserSchema.safeParse(user).success).toBe(false)
    expect(syncUserSchema.safeParse({ ...user, version: 12 }).success).toBe(true)
  })
})
