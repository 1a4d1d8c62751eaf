import { describe, expect, it } from 'vitest'
import { NOTIFICATION_KINDS, type NotificationKind } from './notification.ts'
import {
  DEFAULT_PREFERENCES,
  type EmailCategory,
  emailModeFor,
  isTimeZone,
  mergePreferences,
  PREFERENCE_FOR_KIND,
  type PreferenceKey,
  type Preferences,
  preferencesSchema,
  updatePreferencesSchema,
  wantsDelivery,
} from './preferences.ts'

const KEYS: PreferenceKey[] = [
  'newApplications',
  'topicStatusUpdates',
  'applicationStatusUpdates',
  'newTopicsForReview',
]
const CATEGORIES: EmailCategory[] = [...KEYS, 'reminders']

function allSet(value: boolean): Preferences {
  return {
    ...DEFAULT_PREFERENCES,
    emailNotifications: {
      newApplications: value,
      topicStatusUpdates: value,
      applicationStatusUpdates: value,
      newTopicsForReview: value,
    },
    reminders: value,
  }
}

function onlyOn(key: EmailCategory): Preferences {
  const prefs = allSet(false)
  if (key === 'reminders') prefs.reminders = true
  else prefs.emailNotifications[key] = true
  return prefs
}

describe('preferencesSchema', () => {
  it('accepts the full object', () => {
    const prefs = {
      ...DEFAULT_PREFERENCES,
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
    const result = updatePreferencesSchema.safeParse({ emailNotifications })
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
  const EXPECTED: Record<NotificationKind, EmailCategory> = {
    new_application: 'newApplications',
    topic_approved: 'topicStatusUpdates',
    topic_rejected: 'topicStatusUpdates',
    application_accepted: 'applicationStatusUpdates',
    application_rejected: 'applicationStatusUpdates',
    topic_for_review: 'newTopicsForReview',
    topic_started: 'applicationStatusUpdates',
    topic_concluded: 'applicationStatusUpdates',
    invitation: 'applicationStatusUpdates',
    reminder_answer: 'reminders',
    application_waiting: 'reminders',
    reminder_start: 'reminders',
    reminder_conclude: 'reminders',
    reminder_feedback: 'reminders',
    check_in: 'reminders',
  }

  it('maps every notification kind, and nothing else', () => {
    expect(Object.keys(PREFERENCE_FOR_KIND).sort()).toEqual([...NOTIFICATION_KINDS].sort())
    expect(PREFERENCE_FOR_KIND).toEqual(EXPECTED)
  })

  it('every preference governs at least one kind', () => {
    expect(new Set(Object.values(PREFERENCE_FOR_KIND))).toEqual(new Set(CATEGORIES))
  })

  it.each(NOTIFICATION_KINDS)('%s is delivered by default and not when all are off', (kind) => {
    expect(wantsDelivery(DEFAULT_PREFERENCES, kind)).toBe(true)
    expect(wantsDelivery(allSet(false), kind)).toBe(false)
  })

  it.each(NOTIFICATION_KINDS.flatMap((kind) => CATEGORIES.map((key) => [kind, key] as const)))(
    '%s with only %s on',
    (kind, key) => {
      expect(wantsDelivery(onlyOn(key), kind)).toBe(EXPECTED[kind] === key)
    },
  )
})

describe('delivery settings (issue 18)', () => {
  it('defaults: decisions and new applications as they happen, the rest in the digest', () => {
    expect(emailModeFor(DEFAULT_PREFERENCES, 'application_accepted')).toBe('immediate')
    expect(emailModeFor(DEFAULT_PREFERENCES, 'topic_rejected')).toBe('immediate')
    expect(emailModeFor(DEFAULT_PREFERENCES, 'new_application')).toBe('immediate')
    expect(emailModeFor(DEFAULT_PREFERENCES, 'topic_for_review')).toBe('digest')
    expect(emailModeFor(DEFAULT_PREFERENCES, 'reminder_answer')).toBe('digest')
    expect(DEFAULT_PREFERENCES.quietHours).toEqual({
      enabled: true,
      from: 20,
      to: 8,
      weekends: true,
    })
  })

  it('takes the spec’s object alone and keeps the rest on merge', () => {
    const stored = { ...DEFAULT_PREFERENCES, timeZone: 'Europe/Berlin', digestHour: 7 }
    const update = updatePreferencesSchema.parse({
      emailNotifications: allSet(false).emailNotifications,
    })
    expect(mergePreferences(stored, update)).toEqual({
      ...stored,
      emailNotifications: allSet(false).emailNotifications,
    })
    const cleared = updatePreferencesSchema.parse({ ...stored, timeZone: null })
    expect(mergePreferences(stored, cleared).timeZone).toBeNull()
  })

  it('refuses an unknown time zone, an hour out of range, and quiet hours that start as they end', () => {
    const bad = (patch: object) =>
      updatePreferencesSchema.safeParse({ ...DEFAULT_PREFERENCES, ...patch }).error?.issues[0]
        ?.message
    expect(bad({ timeZone: 'Mars/Olympus' })).toBe(
      'timeZone must be a time zone name such as Europe/Berlin',
    )
    expect(bad({ digestHour: 24 })).toBe('The digest hour must be an hour from 0 to 23')
    expect(bad({ quietHours: { enabled: true, from: 8, to: 8, weekends: false } })).toBe(
      'Quiet hours must start and end at different hours',
    )
    expect(
      bad({ emailDelivery: { ...DEFAULT_PREFERENCES.emailDelivery, reminders: 'weekly' } }),
    ).toBe('reminders must be immediate or digest')
    expect(bad({ timeZone: 'America/Argentina/Buenos_Aires' })).toBeUndefined()
  })

  it('knows the listed time zones, their older aliases and other spellings, and nothing else', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true)
    expect(isTimeZone('UTC')).toBe(true)
    // Not in Intl.supportedValuesOf, but every runtime formats with them: tried, and answered the same twice.
    for (const alias of ['US/Pacific', 'europe/berlin', 'Etc/GMT+2']) {
      expect(isTimeZone(alias)).toBe(true)
      expect(isTimeZone(alias)).toBe(true)
    }
    for (const wrong of ['Mars/Olympus', '', 'Europe/Berlin ', 'x'.repeat(65)]) {
      expect(isTimeZone(wrong)).toBe(false)
      expect(isTimeZone(wrong)).toBe(false)
    }
  })
})
