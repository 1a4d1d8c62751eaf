import { describe, expect, it } from 'vitest'
import {
  APPLICATION_STATUS_LABELS,
  APPLICATION_TRANSITIONS,
  canApply,
  canTransitionApplication,
  checkApply,
  checkDecideApplication,
  checkListApplications,
  decideApplicationSchema,
} from './application.ts'
import { APPLICATION_STATUSES, type ApplicationStatus, type TopicStatus } from './constants.ts'
import type { Actor, Decision } from './decision.ts'

const MENTOR: Actor = { id: 'mentor-1', isAdmin: false }
const ADMIN: Actor = { id: 'admin-1', isAdmin: true }
const MENTEE: Actor = { id: 'mentee-1', isAdmin: false }
type Expected = 'ok' | 403 | 409

function outcome(d: Decision): Expected {
  return d.ok ? 'ok' : d.status
}

function topic(status: TopicStatus = 'approved', currentMentees = 0, maxMentees = 2) {
  return { mentorId: MENTOR.id, status, currentMentees, maxMentees }
}

describe('checkApply and canApply (spec section 5)', () => {
  it.each([
    ['a mentee on an open approved topic', MENTEE, topic('approved', 0, 2), false, 'ok'],
    ['a mentee when one place is left', MENTEE, topic('approved', 1, 2), false, 'ok'],
    ['an admin who is not the mentor', ADMIN, topic('approved', 0, 1), false, 'ok'],
    ['the mentor on their own topic', MENTOR, topic('approved', 0, 2), false, 403],
    ['the mentor on their own non-approved topic', MENTOR, topic('proposed'), false, 403],
    ['a mentee on a proposed topic', MENTEE, topic('proposed'), false, 409],
    ['a mentee on a rejected topic', MENTEE, topic('rejected'), false, 409],
    ['a mentee on a started topic', MENTEE, topic('started'), false, 409],
    ['a mentee on a concluded topic', MENTEE, topic('concluded'), false, 409],
    ['a mentee who already applied', MENTEE, topic('approved', 0, 2), true, 409],
    ['a mentee on a full topic (1/1)', MENTEE, topic('approved', 1, 1), false, 409],
    ['a mentee on a full topic (2/2)', MENTEE, topic('approved', 2, 2), false, 409],
    ['a mentee on an over-full topic', MENTEE, topic('approved', 3, 2), false, 409],
  ] as const)('%s → %s', (_label, actor, t, hasApplication, expected) => {
    const d = checkApply(actor, t, hasApplication)
    expect(outcome(d)).toBe(expected)
    if (!d.ok) expect(d.reason).not.toBe('')
    expect(canApply(actor, t, hasApplication)).toBe(expected === 'ok')
  })
})

describe('checkDecideApplication', () => {
  const cases: [
    string,
    Actor,
    ReturnType<typeof topic>,
    ApplicationStatus,
    'accepted' | 'rejected',
    Expected,
  ][] = [
    [
      'mentor accepts a pending application',
      MENTOR,
      topic('approved', 0, 2),
      'pending',
      'accepted',
      'ok',
    ],
    [
      'mentor rejects a pending application',
      MENTOR,
      topic('approved', 0, 2),
      'pending',
      'rejected',
      'ok',
    ],
    ['mentor accepts the last place', MENTOR, topic('approved', 1, 2), 'pending', 'accepted', 'ok'],
    ['admin (not mentor) accepts', ADMIN, topic('approved'), 'pending', 'accepted', 403],
    ['admin (not mentor) rejects', ADMIN, topic('approved'), 'pending', 'rejected', 403],
    ['another user accepts', MENTEE, topic('approved'), 'pending', 'accepted', 403],
    [
      'mentor accepts an accepted application',
      MENTOR,
      topic('approved'),
      'accepted',
      'accepted',
      409,
    ],
    [
      'mentor rejects an accepted application',
      MENTOR,
      topic('approved'),
      'accepted',
      'rejected',
      409,
    ],
    [
      'mentor accepts a rejected application',
      MENTOR,
      topic('approved'),
      'rejected',
      'accepted',
      409,
    ],
    [
      'mentor rejects a rejected application',
      MENTOR,
      topic('approved'),
      'rejected',
      'rejected',
      409,
    ],
    ['mentor accepts on a proposed topic', MENTOR, topic('proposed'), 'pending', 'accepted', 409],
    ['mentor rejects on a rejected topic', MENTOR, topic('rejected'), 'pending', 'rejected', 409],
    ['mentor accepts on a started topic', MENTOR, topic('started'), 'pending', 'accepted', 409],
    ['mentor rejects on a started topic', MENTOR, topic('started'), 'pending', 'rejected', 409],
    ['mentor rejects on a concluded topic', MENTOR, topic('concluded'), 'pending', 'rejected', 409],
    ['mentor accepts when full (1/1)', MENTOR, topic('approved', 1, 1), 'pending', 'accepted', 409],
    ['mentor accepts when full (2/2)', MENTOR, topic('approved', 2, 2), 'pending', 'accepted', 409],
    ['mentor rejects when full', MENTOR, topic('approved', 2, 2), 'pending', 'rejected', 'ok'],
  ]

  it.each(cases)('%s → %s', (_label, actor, t, status, to, expected) => {
    const d = checkDecideApplication(actor, t, { status }, to)
    expect(outcome(d)).toBe(expected)
    if (!d.ok) expect(d.reason).not.toBe('')
  })

  it('refuses an admin who is not the mentor even on a full topic with 403, not 409', () => {
    expect(
      outcome(
        checkDecideApplication(ADMIN, topic('approved', 2, 2), { status: 'pending' }, 'accepted'),
      ),
    ).toBe(403)
  })
})

describe('decideApplicationSchema', () => {
  it('accepts a rejection with a reason, trimmed', () => {
    expect(
      decideApplicationSchema.parse({ status: 'rejected', rejectionReason: '  Not a fit  ' }),
    ).toEqual({ status: 'rejected', rejectionReason: 'Not a fit' })
  })

  it.each([
    ['missing', {}],
    ['null', { rejectionReason: null }],
    ['empty', { rejectionReason: '' }],
    ['blank', { rejectionReason: '  \n ' }],
  ])('refuses a rejection with a %s reason at path rejectionReason', (_label, extra) => {
    const result = decideApplicationSchema.safeParse({ status: 'rejected', ...extra })
    expect(result.success).toBe(false)
    const issues = result.error?.issues ?? []
    expect(issues.map((i) => i.path.join('.'))).toEqual(['rejectionReason'])
    expect(issues[0]?.message).toBe('A rejection reason is required')
  })

  it.each([
    ['no reason', {}],
    ['a null reason', { rejectionReason: null }],
    ['a reason', { rejectionReason: 'Welcome aboard' }],
    ['a blank reason', { rejectionReason: '  ' }],
  ])('an acceptance with %s carries rejectionReason null', (_label, extra) => {
    expect(decideApplicationSchema.parse({ status: 'accepted', ...extra })).toEqual({
      status: 'accepted',
      rejectionReason: null,
    })
  })

  it.each(['pending', 'approved', '', undefined])('refuses status %j', (status) => {
    const result = decideApplicationSchema.safeParse({ status, rejectionReason: 'x' })
    expect(result.success).toBe(false)
    const messages = (result.error?.issues ?? [])
      .filter((i) => i.path.join('.') === 'status')
      .map((i) => i.message)
    expect(messages).toEqual(['Status must be accepted or rejected'])
  })

  it('refuses an unknown key (strict)', () => {
    const result = decideApplicationSchema.safeParse({ status: 'accepted', note: 'hi' })
    expect(result.success).toBe(false)
    expect(result.error?.issues.some((i) => i.code === 'unrecognized_keys')).toBe(true)
  })
})

describe('application state machine', () => {
  const ALLOWED = new Set(['pending>accepted', 'pending>rejected'])
  const matrix = APPLICATION_STATUSES.flatMap((from) =>
    APPLICATION_STATUSES.map((to) => [from, to, ALLOWED.has(`${from}>${to}`)] as const),
  )

  it('covers all 9 pairs', () => {
    expect(matrix).toHaveLength(9)
  })

  it.each(matrix)('canTransitionApplication(%s, %s) is %s', (from, to, expected) => {
    expect(canTransitionApplication(from, to)).toBe(expected)
  })

  it('APPLICATION_TRANSITIONS lists exactly the allowed transitions', () => {
    const listed = Object.entries(APPLICATION_TRANSITIONS).flatMap(([from, tos]) =>
      tos.map((to) => `${from}>${to}`),
    )
    expect(new Set(listed)).toEqual(ALLOWED)
    expect(listed).toHaveLength(ALLOWED.size)
  })
})

describe('checkListApplications', () => {
  it.each([
    ['the mentor', MENTOR, 'ok'],
    ['an admin', ADMIN, 'ok'],
    ['another user', MENTEE, 403],
  ] as const)('%s → %s', (_label, actor, expected) => {
    expect(outcome(checkListApplications(actor, { mentorId: MENTOR.id }))).toBe(expected)
  })
})

describe('APPLICATION_STATUS_LABELS', () => {
  it('shows accepted as Active to the mentee (spec section 4)', () => {
    expect(APPLICATION_STATUS_LABELS).toEqual({
      pending: 'Pending',
      accepted: 'Active',
      rejected: 'Rejected',
    })
  })
})
