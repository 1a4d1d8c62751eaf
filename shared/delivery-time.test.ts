import { describe, expect, it } from 'vitest'
import { digestDue, inQuietHours, isQuiet, localTime, nextSendTime } from './delivery-time.ts'
import { DEFAULT_PREFERENCES, DEFAULT_QUIET_HOURS } from './preferences.ts'

const berlin = { ...DEFAULT_PREFERENCES, timeZone: 'Europe/Berlin' }

describe('localTime', () => {
  it('gives the calendar day, hour and weekday on the person’s wall', () => {
    // 2026-11-27 is a Friday; 23:30 UTC is 00:30 on Saturday in Berlin (UTC+1).
    const at = new Date('2026-11-27T23:30:00Z')
    expect(localTime(at, null)).toEqual({
      date: '2026-11-27',
      hour: 23,
      minute: 30,
      weekend: false,
    })
    expect(localTime(at, 'Europe/Berlin')).toEqual({
      date: '2026-11-28',
      hour: 0,
      minute: 30,
      weekend: true,
    })
    expect(localTime(at, 'Asia/Kolkata').date).toBe('2026-11-28')
    expect(localTime(at, 'America/New_York')).toMatchObject({ date: '2026-11-27', hour: 18 })
  })
})

describe('quiet hours', () => {
  const weekday = (hour: number) => ({ date: '2026-11-26', hour, minute: 0, weekend: false })
  it('holds from 20:00 to 08:00 and all weekend by default', () => {
    expect(inQuietHours(DEFAULT_QUIET_HOURS, weekday(19))).toBe(false)
    expect(inQuietHours(DEFAULT_QUIET_HOURS, weekday(20))).toBe(true)
    expect(inQuietHours(DEFAULT_QUIET_HOURS, weekday(3))).toBe(true)
    expect(inQuietHours(DEFAULT_QUIET_HOURS, weekday(7))).toBe(true)
    expect(inQuietHours(DEFAULT_QUIET_HOURS, weekday(8))).toBe(false)
    expect(inQuietHours(DEFAULT_QUIET_HOURS, { ...weekday(12), weekend: true })).toBe(true)
  })
  it('follows a daytime range, weekends off, and off altogether', () => {
    const day = { enabled: true, from: 12, to: 14, weekends: false }
    expect(inQuietHours(day, weekday(11))).toBe(false)
    expect(inQuietHours(day, weekday(12))).toBe(true)
    expect(inQuietHours(day, weekday(14))).toBe(false)
    expect(inQuietHours(day, { ...weekday(10), weekend: true })).toBe(false)
    expect(inQuietHours({ ...DEFAULT_QUIET_HOURS, enabled: false }, weekday(3))).toBe(false)
  })
  it('holds nothing while the time zone is not known', () => {
    expect(isQuiet(DEFAULT_PREFERENCES, new Date('2026-11-26T02:00:00Z'))).toBe(false)
    expect(isQuiet(berlin, new Date('2026-11-26T02:00:00Z'))).toBe(true)
  })
})

describe('nextSendTime', () => {
  it('is the moment itself outside quiet hours', () => {
    const at = new Date('2026-11-26T10:17:00Z')
    expect(nextSendTime(berlin, at)).toBe(at)
  })
  it('is 08:00 local the next morning for a message at 22:00', () => {
    // Thursday 22:00 in Berlin = 21:00 UTC; Friday 08:00 Berlin = 07:00 UTC.
    expect(nextSendTime(berlin, new Date('2026-11-26T21:00:00Z')).toISOString()).toBe(
      '2026-11-27T07:00:00.000Z',
    )
  })
  it('is Monday 08:00 for a message on Friday evening', () => {
    expect(nextSendTime(berlin, new Date('2026-11-27T19:30:00Z')).toISOString()).toBe(
      '2026-11-30T07:00:00.000Z',
    )
  })
  it('ends on the half hour in a zone offset by half an hour', () => {
    const kolkata = { ...DEFAULT_PREFERENCES, timeZone: 'Asia/Kolkata' }
    // Thursday 21:00 IST = 15:30 UTC; Friday 08:00 IST = 02:30 UTC.
    expect(nextSendTime(kolkata, new Date('2026-11-26T15:30:00Z')).toISOString()).toBe(
      '2026-11-27T02:30:00.000Z',
    )
  })
  it('finds the one free hour, and holds no longer than a day when there is one', () => {
    const never = {
      timeZone: 'UTC',
      quietHours: { enabled: true, from: 1, to: 0, weekends: true },
    }
    // Quiet 01:00–24:00: the one free hour is just after midnight.
    expect(nextSendTime(never, new Date('2026-11-26T02:00:00Z')).toISOString()).toBe(
      '2026-11-27T00:00:00.000Z',
    )
    const at = new Date('2026-11-26T00:30:00Z')
    const always = {
      timeZone: 'UTC',
      quietHours: { enabled: true, from: 0, to: 23, weekends: true },
    }
    expect(nextSendTime(always, at).toISOString()).toBe('2026-11-26T23:00:00.000Z')
  })
})

describe('digestDue', () => {
  it('comes at the digest hour, not before, and not in quiet hours', () => {
    const prefs = { ...berlin, digestHour: 9 }
    expect(digestDue(prefs, new Date('2026-11-26T07:59:00Z'))).toBe(false) // 08:59
    expect(digestDue(prefs, new Date('2026-11-26T08:00:00Z'))).toBe(true) // 09:00
    expect(digestDue(prefs, new Date('2026-11-26T15:00:00Z'))).toBe(true) // 16:00
    expect(digestDue(prefs, new Date('2026-11-26T20:00:00Z'))).toBe(false) // 21:00, quiet
    expect(digestDue(prefs, new Date('2026-11-28T10:00:00Z'))).toBe(false) // Saturday
  })
})
