import { describe, expect, it } from 'vitest'
import { TOPIC_STATUSES, type TopicStatus } from './constants.ts'
import type { Actor, Decision } from './decision.ts'
import {
  canTransitionTopic,
  canViewTopic,
  checkConcludeTopic,
  checkEditTopic,
  checkReviewTopic,
  checkStartTopic,
  concludeTopicSchema,
  matchesTopicFilters,
  reviewDecisionSchema,
  statusAfterEdit,
  TOPIC_TRANSITIONS,
  topicInputSchema,
} from './topic.ts'

const MENTOR: Actor = { id: 'mentor-1', isAdmin: false }
const ADMIN: Actor = { id: 'admin-1', isAdmin: true }
const OTHER: Actor = { id: 'other-1', isAdmin: false }
const ACTORS = { mentor: MENTOR, admin: ADMIN, other: OTHER } as const
type Role = keyof typeof ACTORS
type Expected = 'ok' | 403 | 409

const topicIn = (status: TopicStatus) => ({ mentorId: MENTOR.id, status })

function outcome(d: Decision): Expected {
  return d.ok ? 'ok' : d.status
}

function expectDecision(d: Decision, expected: Expected) {
  expect(outcome(d)).toBe(expected)
  if (!d.ok) expect(d.reason.length).toBeGreaterThan(0)
}

/** Messages of a failed parse, keyed by dotted path. */
function issuesOf(result: { success: boolean; error?: { issues: readonly unknown[] } }) {
  expect(result.success).toBe(false)
  return (result.error?.issues ?? []) as { path: PropertyKey[]; message: string; code: string }[]
}

function messagesAt(
  result: { success: boolean; error?: { issues: readonly unknown[] } },
  path: string,
) {
  return issuesOf(result)
    .filter((i) => i.path.join('.') === path)
    .map((i) => i.message)
}

const validInput = {
  subject: 'Intro to TypeScript',
  maxMentees: 2,
  seniorityRequired: ['junior'],
}

describe('topicInputSchema', () => {
  it('accepts a minimal valid input and fills the defaults', () => {
    const parsed = topicInputSchema.parse(validInput)
    expect(parsed).toEqual({
      subject: 'Intro to TypeScript',
      description: '',
      maxMentees: 2,
      seniorityRequired: ['junior'],
      location: 'online',
      interests: [],
    })
  })

  it('keeps every provided field', () => {
    const input = {
      id: '0b6f1c2e-8a3d-4e5f-9a7b-1c2d3e4f5a6b',
      subject: '  Rust for beginners  ',
      description: '<p>Hello</p>',
      maxMentees: 1,
      seniorityRequired: ['mid', 'senior'],
      location: 'both',
      interests: ['Rust', 'Systems'],
    }
    expect(topicInputSchema.parse(input)).toEqual({
      ...input,
      subject: 'Rust for beginners',
    })
  })

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['blank', '   \t '],
    ['not a string', 42],
  ])('rejects a %s subject with "Subject is required"', (_label, subject) => {
    const result = topicInputSchema.safeParse({ ...validInput, subject })
    expect(messagesAt(result, 'subject')).toEqual(['Subject is required'])
  })

  it.each([
    ['empty', []],
    ['missing', undefined],
  ])(
    'rejects %s seniorityRequired with "At least one seniority level is required"',
    (_label, seniorityRequired) => {
      const result = topicInputSchema.safeParse({ ...validInput, seniorityRequired })
      expect(messagesAt(result, 'seniorityRequired')).toEqual([
        'At least one seniority level is required',
      ])
    },
  )

  it('rejects an unknown seniority level', () => {
    const result = topicInputSchema.safeParse({ ...validInput, seniorityRequired: ['guru'] })
    expect(messagesAt(result, 'seniorityRequired.0')).toHaveLength(1)
  })

  it('collapses duplicate seniority levels, keeping first order', () => {
    const parsed = topicInputSchema.parse({
      ...validInput,
      seniorityRequired: ['senior', 'junior', 'senior', 'junior'],
    })
    expect(parsed.seniorityRequired).toEqual(['senior', 'junior'])
  })

  it.each([1, 2])('accepts maxMentees %d', (maxMentees) => {
    expect(topicInputSchema.parse({ ...validInput, maxMentees }).maxMentees).toBe(maxMentees)
  })

  it.each([0, 3, 1.5, -1, 'abc', '0x2', true, [2], null, undefined])(
    'rejects maxMentees %j',
    (maxMentees) => {
      const result = topicInputSchema.safeParse({ ...validInput, maxMentees })
      expect(messagesAt(result, 'maxMentees').length).toBeGreaterThan(0)
    },
  )

  it('coerces maxMentees "2" to the number 2', () => {
    expect(topicInputSchema.parse({ ...validInput, maxMentees: '2' }).maxMentees).toBe(2)
  })

  it('rejects an unknown key (strict)', () => {
    const result = topicInputSchema.safeParse({ ...validInput, status: 'approved' })
    const issues = issuesOf(result)
    expect(issues.some((i) => i.code === 'unrecognized_keys')).toBe(true)
  })

  it.each(['online', 'in-person', 'both'])('accepts location %s', (location) => {
    expect(topicInputSchema.parse({ ...validInput, location }).location).toBe(location)
  })

  it.each(['offline', 'In-Person', '', 'hybrid'])('rejects location %j', (location) => {
    const result = topicInputSchema.safeParse({ ...validInput, location })
    expect(messagesAt(result, 'location')).toEqual([
      'Location must be one of online, in-person or both',
    ])
  })

  it('dedupes interests ignoring case and trims them', () => {
    const parsed = topicInputSchema.parse({
      ...validInput,
      interests: [' React ', 'react', 'Node'],
    })
    expect(parsed.interests).toEqual(['React', 'Node'])
  })

  it('rejects a non-UUID id', () => {
    const result = topicInputSchema.safeParse({ ...validInput, id: 'not-a-uuid' })
    expect(messagesAt(result, 'id')).toEqual(['The topic id must be a UUID'])
  })
})

describe('reviewDecisionSchema', () => {
  it.each([
    [{ status: 'approved' }, { status: 'approved', rejectionReason: null }],
    [
      { status: 'approved', rejectionReason: null },
      { status: 'approved', rejectionReason: null },
    ],
    [{ status: 'rejected' }, { status: 'rejected', rejectionReason: null }],
    [
      { status: 'rejected', rejectionReason: null },
      { status: 'rejected', rejectionReason: null },
    ],
    [
      { status: 'rejected', rejectionReason: '  Too vague  ' },
      { status: 'rejected', rejectionReason: 'Too vague' },
    ],
    [
      { status: 'rejected', rejectionReason: '' },
      { status: 'rejected', rejectionReason: null },
    ],
    [
      { status: 'rejected', rejectionReason: '   ' },
      { status: 'rejected', rejectionReason: null },
    ],
  ])('parses %j to %j', (input, expected) => {
    expect(reviewDecisionSchema.parse(input)).toEqual(expected)
  })

  it.each([['proposed'], ['started'], ['concluded'], ['pending'], [undefined]])(
    'rejects status %j',
    (status) => {
      const result = reviewDecisionSchema.safeParse({ status })
      expect(messagesAt(result, 'status')).toEqual(['Status must be approved or rejected'])
    },
  )

  it('rejects an unknown key (strict)', () => {
    const result = reviewDecisionSchema.safeParse({ status: 'approved', note: 'x' })
    expect(issuesOf(result).some((i) => i.code === 'unrecognized_keys')).toBe(true)
  })
})

describe('concludeTopicSchema', () => {
  it('accepts and trims mentor feedback', () => {
    expect(concludeTopicSchema.parse({ mentorFeedback: '  Great work  ' })).toEqual({
      mentorFeedback: 'Great work',
    })
  })

  it.each([
    ['empty', ''],
    ['blank after trim', ' \n\t '],
    ['missing', undefined],
  ])('rejects %s mentor feedback', (_label, mentorFeedback) => {
    const result = concludeTopicSchema.safeParse({ mentorFeedback })
    expect(messagesAt(result, 'mentorFeedback')).toEqual(['Mentor feedback is required'])
  })

  it('rejects an unknown key (strict)', () => {
    const result = concludeTopicSchema.safeParse({ mentorFeedback: 'ok', rating: 5 })
    expect(issuesOf(result).some((i) => i.code === 'unrecognized_keys')).toBe(true)
  })
})

describe('topic state machine', () => {
  /** The transitions of spec section 4 plus ARCHITECTURE.md's resubmission of a rejected topic. */
  const ALLOWED = new Set([
    'proposed>approved',
    'proposed>rejected',
    'approved>started',
    'started>concluded',
    'rejected>proposed',
  ])
  const matrix = TOPIC_STATUSES.flatMap((from) =>
    TOPIC_STATUSES.map((to) => [from, to, ALLOWED.has(`${from}>${to}`)] as const),
  )

  it('covers all 25 pairs', () => {
    expect(matrix).toHaveLength(25)
  })

  it.each(matrix)('canTransitionTopic(%s, %s) is %s', (from, to, expected) => {
    expect(canTransitionTopic(from, to)).toBe(expected)
  })

  it('TOPIC_TRANSITIONS lists exactly the allowed transitions', () => {
    const listed = Object.entries(TOPIC_TRANSITIONS).flatMap(([from, tos]) =>
      tos.map((to) => `${from}>${to}`),
    )
    expect(new Set(listed)).toEqual(ALLOWED)
    expect(listed).toHaveLength(ALLOWED.size)
    expect(Object.keys(TOPIC_TRANSITIONS).sort()).toEqual([...TOPIC_STATUSES].sort())
  })

  it.each([
    ['proposed', 'proposed'],
    ['approved', 'approved'],
    ['rejected', 'proposed'],
    ['started', 'started'],
    ['concluded', 'concluded'],
  ] as const)('statusAfterEdit(%s) is %s', (status, expected) => {
    expect(statusAfterEdit(status)).toBe(expected)
  })

  it('statusAfterEdit of a rejected topic is a legal transition', () => {
    expect(canTransitionTopic('rejected', statusAfterEdit('rejected'))).toBe(true)
  })
})

/** Builds a status × role table from one row per status: [mentor, admin, other]. */
function table<T>(rows: Record<TopicStatus, [T, T, T]>) {
  return TOPIC_STATUSES.flatMap((status) =>
    (['mentor', 'admin', 'other'] as const).map((role, i) => {
      const expected = rows[status][i] as T
      return [status, role, expected] as [TopicStatus, Role, T]
    }),
  )
}

describe('canViewTopic', () => {
  it.each(
    table<boolean>({
      proposed: [true, true, false],
      approved: [true, true, true],
      rejected: [true, true, false],
      started: [true, true, true],
      concluded: [true, true, true],
    }),
  )('%s topic, %s can view: %s', (status, role, expected) => {
    expect(canViewTopic(ACTORS[role], topicIn(status))).toBe(expected)
  })
})

describe('topic permission checks (spec section 6)', () => {
  describe('checkEditTopic: mentor or admin, unless started or concluded', () => {
    it.each(
      table<Expected>({
        proposed: ['ok', 'ok', 403],
        approved: ['ok', 'ok', 403],
        rejected: ['ok', 'ok', 403],
        started: [409, 409, 403],
        concluded: [409, 409, 403],
      }),
    )('%s topic, %s → %s', (status, role, expected) => {
      expectDecision(checkEditTopic(ACTORS[role], topicIn(status)), expected)
    })
  })

  describe('checkReviewTopic: admin, on a proposed topic', () => {
    it.each(
      table<Expected>({
        proposed: [403, 'ok', 403],
        approved: [403, 409, 403],
        rejected: [403, 409, 403],
        started: [403, 409, 403],
        concluded: [403, 409, 403],
      }),
    )('%s topic, %s → %s', (status, role, expected) => {
      expectDecision(checkReviewTopic(ACTORS[role], topicIn(status)), expected)
    })
  })

  describe('checkStartTopic: the mentor only, on an approved topic', () => {
    it.each(
      table<Expected>({
        proposed: [409, 403, 403],
        approved: ['ok', 403, 403],
        rejected: [409, 403, 403],
        started: [409, 403, 403],
        concluded: [409, 403, 403],
      }),
    )('%s topic, %s → %s', (status, role, expected) => {
      expectDecision(checkStartTopic(ACTORS[role], topicIn(status)), expected)
    })
  })

  describe('checkConcludeTopic: mentor or admin, on a started topic', () => {
    it.each(
      table<Expected>({
        proposed: [409, 409, 403],
        approved: [409, 409, 403],
        rejected: [409, 409, 403],
        started: ['ok', 'ok', 403],
        concluded: [409, 409, 403],
      }),
    )('%s topic, %s → %s', (status, role, expected) => {
      expectDecision(checkConcludeTopic(ACTORS[role], topicIn(status)), expected)
    })
  })

  it('an admin who mentors the topic may start it', () => {
    const adminMentor: Actor = { id: MENTOR.id, isAdmin: true }
    expectDecision(checkStartTopic(adminMentor, topicIn('approved')), 'ok')
  })
})

describe('matchesTopicFilters', () => {
  const topic = (
    location: 'online' | 'in-person' | 'both',
    seniorityRequired: ('junior' | 'mid' | 'senior')[] = ['junior'],
    status: TopicStatus = 'approved',
  ) => ({ location, seniorityRequired, status })

  it('matches everything with no filters', () => {
    expect(matchesTopicFilters(topic('in-person', ['senior'], 'started'), {})).toBe(true)
  })

  it.each([
    ['online', 'online', true],
    ['online', 'in-person', false],
    ['online', 'both', true],
    ['in-person', 'online', false],
    ['in-person', 'in-person', true],
    ['in-person', 'both', true],
    ['both', 'online', false],
    ['both', 'in-person', false],
    ['both', 'both', true],
  ] as const)('location filter %s on a %s topic → %s', (filter, location, expected) => {
    expect(matchesTopicFilters(topic(location), { location: filter })).toBe(expected)
  })

  it.each([
    ['junior', ['junior'], true],
    ['junior', ['mid', 'senior'], false],
    ['mid', ['junior', 'mid'], true],
    ['senior', ['junior', 'mid'], false],
    ['senior', ['junior', 'mid', 'senior'], true],
  ] as const)('seniority filter %s on %j → %s', (seniority, levels, expected) => {
    expect(matchesTopicFilters(topic('online', [...levels]), { seniority })).toBe(expected)
  })

  it.each(
    TOPIC_STATUSES.flatMap((filter) =>
      TOPIC_STATUSES.map((status) => [filter, status, filter === status] as const),
    ),
  )('status filter %s on a %s topic → %s', (filter, status, expected) => {
    expect(matchesTopicFilters(topic('online', ['junior'], status), { status: filter })).toBe(
      expected,
    )
  })

  it('requires every given filter to match', () => {
    const t = topic('both', ['mid'], 'approved')
    expect(
      matchesTopicFilters(t, { location: 'online', seniority: 'mid', status: 'approved' }),
    ).toBe(true)
    expect(
      matchesTopicFilters(t, { location: 'online', seniority: 'junior', status: 'approved' }),
    ).toBe(false)
    expect(
      matchesTopicFilters(t, { location: 'online', seniority: 'mid', status: 'started' }),
    ).toBe(false)
  })
})
