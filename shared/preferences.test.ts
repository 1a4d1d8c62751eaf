import { describe, expect, it } from 'vitest'
import { NOTIFICATION_KINDS, type NotificationKind } from './notification.ts'
import {
  DEFAULT_PREFERENCES,
  PREFERENCE_FOR_KIND,
  type PreferenceKey,
  type Preferences,
  preferencesSchema,
  wantsDelivery,
} from './preferences.ts'

const KEYS: PreferenceKey[] = [
  'newApplications',
  'topicStatusUpdates',
  'applicationStatusUpdates',
  'newTopicsForReview',
]

function allSet(value: boolean): Preferences {
  return {
    emailNotifications: {
      newApplications: value,
      topicStatusUpdates: value,
      applicationStatusUpdates: value,
      newTopicsForReview: value,
    },
  }
}

function onlyOn(key: PreferenceKey): Preferences {
  const prefs = allSet(false)
  prefs.emailNotifications[key] = true
  return prefs
}

describe('preferencesSchema', () => {
  it('accepts the full object', () => {
    const prefs = {
      emailNotifications: {
        newApplications: true,
        topicStatusUpdates: false,
        applicationStatusUpdates: true,
        newTopicsForReview: false,
      },
    }
    expect(preferencesSchema.parse(prefs)).toEqual(prefs)
  })

  it.each(KEYS)('refuses an object missing %s (PATCH takes the full object)', (key) => {
    const emailNotifications: Record<string, boolean> = { ...allSet(true).emailNotifications }
    delete emailNotifications[key]
    const result = preferencesSchema.safeParse({ emailNotifications })
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual([`emailNotifications.${key}`])
  })

  it.each(KEYS)('refuses a non-boolean %s', (key) => {
    const emailNotifications = { ...allSet(true).emailNotifications, [key]: 'yes' }
    const result = preferencesSchema.safeParse({ emailNotifications })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe(`${key} must be true or false`)
  })

  it('refuses an unknown key inside emailNotifications (strict)', () => {
    const result = preferencesSchema.safeParse({
      emailNotifications: { ...allSet(true).emailNotifications, weeklyDigest: true },
    })
    expect(result.success).toBe(false)
    expect(result.error?.issues.some((i) => i.code === 'unrecognized_keys')).toBe(true)
  })

  it('refuses an unknown top-level key (strict)', () => {
    const result = preferencesSchema.safeParse({ ...allSet(true), pushNotifications: {} })
    expect(result.success).toBe(false)
    expect(result.error?.issues.some((i) => i.code === 'unrecognized_keys')).toBe(true)
  })

  it.each([{}, null, { emailNotifications: null }])('refuses %j', (input) => {
    expect(preferencesSchema.safeParse(input).success).toBe(false)
  })
})

describe('DEFAULT_PREFERENCES', () => {
  it('turns every preference on and is itself valid', () => {
    expect(DEFAULT_PREFERENCES).toEqual(allSet(true))
    expect(preferencesSchema.parse(DEFAULT_PREFERENCES)).toEqual(DEFAULT_PREFERENCES)
  })
})

describe('PREFERENCE_FOR_KIND and wantsDelivery', () => {
  /** Spec section 2 (notification settings) and ARCHITECTURE.md's notification list. */
  const EXPECTED: Record<NotificationKind, PreferenceKey> = {
    new_application: 'newApplications',
    topic_approved: 'topicStatusUpdates',
    topic_rejected: 'topicStatusUpdates',
    application_accepted: 'applicationStatusUpdates',
    application_rejected: 'applicationStatusUpdates',
    topic_for_review: 'newTopicsForReview',
    topic_started: 'applicationStatusUpdates',
    topic_concluded: 'applicationStatusUpdates',
    invitation: 'applicationStatusUpdates',
  }

  it('maps every notification kind, and nothing else', () => {
    expect(Object.keys(PREFERENCE_FOR_KIND).sort()).toEqual([...NOTIFICATION_KINDS].sort())
    expect(PREFERENCE_FOR_KIND).toEqual(EXPECTED)
  })

  it('every preference governs at least one kind', () => {
    expect(new Set(Object.values(PREFERENCE_FOR_KIND))).toEqual(new Set(KEYS))
  })

  it.each(NOTIFICATION_KINDS)('%s is delivered by default and not when all are off', (kind) => {
    expect(wantsDelivery(DEFAULT_PREFERENCES, kind)).toBe(true)
    expect(wantsDelivery(allSet(false), kind)).toBe(false)
  })

  it.each(NOTIFICATION_KINDS.flatMap((kind) => KEYS.map((key) => [kind, key] as const)))(
    '%s with only %s on',
    (kind, key) => {
      expect(wantsDelivery(onlyOn(key), kind)).toBe(EXPECTED[kind] === key)
    },
  )
})
