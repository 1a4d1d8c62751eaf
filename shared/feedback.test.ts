import { describe, expect, it } from 'vitest'
import { TOPIC_STATUSES, type TopicStatus } from './constants.ts'
import type { Actor, Decision } from './decision.ts'
import { checkGiveFeedback, feedbackInputSchema } from './feedback.ts'

const MENTOR: Actor = { id: 'mentor-1', isAdmin: false }
const MENTEE: Actor = { id: 'mentee-1', isAdmin: false }
const ADMIN: Actor = { id: 'admin-1', isAdmin: true }
const OTHER: Actor = { id: 'other-1', isAdmin: false }
type Expected = 'ok' | 403 | 409

function outcome(d: Decision): Expected {
  return d.ok ? 'ok' : d.status
}

describe('feedbackInputSchema', () => {
  it('defaults the rating to 5', () => {
    expect(feedbackInputSchema.parse({ feedback: 'Very helpful' })).toEqual({
      feedback: 'Very helpful',
      rating: 5,
    })
  })

  it.each([1, 2, 3, 4, 5])('accepts rating %d', (rating) => {
    expect(feedbackInputSchema.parse({ feedback: 'ok', rating }).rating).toBe(rating)
  })

  it.each([0, 6, -1, 2.5, Number.NaN, '3', null])('refuses rating %j', (rating) => {
    const result = feedbackInputSchema.safeParse({ feedback: 'ok', rating })
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['rating'])
  })

  it('trims the feedback text', () => {
    expect(feedbackInputSchema.parse({ feedback: '  Thanks!  ', rating: 4 }).feedback).toBe(
      'Thanks!',
    )
  })

  it.each([
    ['empty', ''],
    ['blank', ' \n\t '],
    ['missing', undefined],
  ])('refuses %s feedback with "Feedback is required"', (_label, feedback) => {
    const result = feedbackInputSchema.safeParse({ feedback, rating: 4 })
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['feedback', 'Feedback is required'],
    ])
  })

  it('refuses an unknown key (strict)', () => {
    const result = feedbackInputSchema.safeParse({ feedback: 'ok', isMentor: true })
    expect(result.success).toBe(false)
    expect(result.error?.issues.some((i) => i.code === 'unrecognized_keys')).toBe(true)
  })
})

describe('checkGiveFeedback', () => {
  const topic = (status: TopicStatus) => ({ mentorId: MENTOR.id, status })

  it.each([
    ['the mentor', MENTOR, false, 'ok'],
    ['an accepted mentee', MENTEE, true, 'ok'],
    ['a mentee who was not accepted', MENTEE, false, 403],
    ['an admin who is not a participant', ADMIN, false, 403],
    ['an unrelated user', OTHER, false, 403],
  ] as const)('on a concluded topic, %s → %s', (_label, actor, accepted, expected) => {
    expect(outcome(checkGiveFeedback(actor, topic('concluded'), accepted))).toBe(expected)
  })

  const notConcluded = TOPIC_STATUSES.filter((s) => s !== 'concluded')
  it.each(
    notConcluded.flatMap((status) => [
      [status, 'the mentor', MENTOR, false, 409] as const,
      [status, 'an accepted mentee', MENTEE, true, 409] as const,
      [status, 'an unrelated user', OTHER, false, 403] as const,
    ]),
  )('on a %s topic, %s → %s', (status, _label, actor, accepted, expected) => {
    const d = checkGiveFeedback(actor, topic(status), accepted)
    expect(outcome(d)).toBe(expected)
    if (!d.ok) expect(d.reason).not.toBe('')
  })
})
