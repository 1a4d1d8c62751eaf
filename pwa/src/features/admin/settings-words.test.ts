import { describe, expect, it } from 'vitest'
import {
  DEFAULT_PROGRAMME_SETTINGS,
  type SettingsChange,
} from '../../../../shared/programme-settings.ts'
import { describeChange } from './settings-words.ts'

// The settings' change log in words (issue 18): each setting with a readable
// label and its values, days and months counted, null as Off or No limit.

const change = (setting: SettingsChange['setting'], before: unknown, after: unknown) =>
  ({
    id: '00000000-0000-4000-8000-000000000001',
    setting,
    before,
    after,
    changedAt: '2026-11-26T10:00:00.000Z',
    changedBy: { id: '00000000-0000-4000-8000-000000000002', username: 'admin', full_name: 'Ada' },
  }) as SettingsChange

const reminders = DEFAULT_PROGRAMME_SETTINGS.reminders

describe('describeChange', () => {
  it('names each changed reminder stage with its days, and Off for null', () => {
    expect(
      describeChange(
        change('reminders', reminders, {
          ...reminders,
          mentorAnswerDays: 5,
          checkInDays: null,
          concludeAtProgrammeEnd: false,
        }),
      ),
    ).toBe(
      'Remind the mentor of an unanswered application: 3 days → 5 days, Ask how it is going: 21 days → Off, Remind the mentor to conclude at the end of the programme: On → Off',
    )
  })

  it('reads a first change (no before) against the defaults', () => {
    expect(describeChange(change('reminders', null, { ...reminders, startDays: 1 }))).toBe(
      'Remind the mentor to start: 14 days → 1 day',
    )
    expect(describeChange(change('programmeLengthMonths', null, 1))).toBe(
      'Programme length: 6 months → 1 month',
    )
  })

  it('words the pending limit as No limit or At most N', () => {
    expect(describeChange(change('pendingApplicationLimit', null, 2))).toBe(
      'Pending applications per mentee: No limit → At most 2',
    )
    expect(describeChange(change('pendingApplicationLimit', 2, null))).toBe(
      'Pending applications per mentee: At most 2 → No limit',
    )
  })

  it('still describes match weights', () => {
    expect(
      describeChange(
        change('matchWeights', DEFAULT_PROGRAMME_SETTINGS.matchWeights, {
          ...DEFAULT_PROGRAMME_SETTINGS.matchWeights,
          location: 3,
        }),
      ),
    ).toBe('Location 1 → 3')
  })
})
