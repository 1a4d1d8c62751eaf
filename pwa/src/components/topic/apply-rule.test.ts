import { describe, expect, it } from 'vitest'
import { pendingLimitMessage } from '../../../../shared/application.ts'
import { applyOffer } from './apply-rule.ts'

// Apply is offered under spec section 5's rules; under the programme's
// pending limit (issue 18) the limit's sentence stands in its place.

const me = { id: 'me', isAdmin: false }
const topic = { mentorId: 'mentor', status: 'approved' as const, currentMentees: 0, maxMentees: 2 }

describe('applyOffer', () => {
  it('offers Apply under the limit, or with none', () => {
    expect(applyOffer(me, topic, false, { pending: 1, limit: 2 })).toEqual({ kind: 'apply' })
    expect(applyOffer(me, topic, false, { pending: 9, limit: null })).toEqual({ kind: 'apply' })
    expect(applyOffer(me, topic, false, undefined)).toEqual({ kind: 'apply' })
  })

  it('says the limit’s sentence at the limit', () => {
    expect(applyOffer(me, topic, false, { pending: 1, limit: 1 })).toEqual({
      kind: 'limited',
      message: pendingLimitMessage(1),
    })
    expect(applyOffer(me, topic, false, { pending: 3, limit: 2 })).toEqual({
      kind: 'limited',
      message: pendingLimitMessage(2),
    })
  })

  it('offers nothing where Apply would not show anyway (own, applied, full, not approved)', () => {
    const limit = { pending: 5, limit: 1 }
    expect(applyOffer({ id: 'mentor', isAdmin: false }, topic, false, limit).kind).toBe('none')
    expect(applyOffer(me, topic, true, limit).kind).toBe('none')
    expect(applyOffer(me, { ...topic, currentMentees: 2 }, false, limit).kind).toBe('none')
    expect(applyOffer(me, { ...topic, status: 'started' as const }, false, limit).kind).toBe('none')
  })
})
