/**
 * Business constants of the mentorship programme (spec section 9).
 * Both the server and the PWA import these; nothing here is defined twice.
 */

export const SENIORITY_LEVELS = ['junior', 'mid', 'senior'] as const
export type Seniority = (typeof SENIORITY_LEVELS)[number]
export const SENIORITY_LABELS: Record<Seniority, string> = {
  junior: 'Junior',
  mid: 'Mid-Level',
  senior: 'Senior',
}

export const LOCATIONS = ['online', 'in-person', 'both'] as const
export type Location = (typeof LOCATIONS)[number]
/** Labels in the topic form. */
export const LOCATION_FORM_LABELS: Record<Location, string> = {
  online: 'Online Only',
  'in-person': 'In-Person Only',
  both: 'Both',
}
/** Labels on cards and the detail page ("both" reads "Online & In-Person"). */
export const LOCATION_CARD_LABELS: Record<Location, string> = {
  online: 'Online',
  'in-person': 'In Person',
  both: 'Online & In-Person',
}
export const DEFAULT_LOCATION: Location = 'online'

export const TOPIC_STATUSES = ['proposed', 'approved', 'rejected', 'started', 'concluded'] as const
export type TopicStatus = (typeof TOPIC_STATUSES)[number]

export const APPLICATION_STATUSES = ['pending', 'accepted', 'rejected'] as const
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number]

export const MAX_MENTEES_MIN = 1
export const MAX_MENTEES_MAX = 2

export const RATING_MIN = 1
export const RATING_MAX = 5
export const RATING_DEFAULT = 5

/** Schemes the editor's link button accepts (spec section 5); the sanitiser keeps only these. */
export const LINK_SCHEMES = [
  'http',
  'https',
  'ftp',
  'ftps',
  'mailto',
  'tel',
  'callto',
  'sms',
  'cid',
  'xmpp',
] as const

export const EDITOR_HISTORY_DEPTH = 100
export const EDITOR_NEW_GROUP_DELAY_MS = 500

export const TOAST_LIMIT = 1
export const TOAST_DURATION_MS = 5000
export const TOAST_SWIPE_THRESHOLD_PX = 50
export const TOAST_HOTKEY = 'F8'
export const TOAST_MAX_WIDTH_PX = 420

/** Field lengths: generous for people, bounded for the database. */
export const SUBJECT_MAX_LENGTH = 200
export const DESCRIPTION_MAX_LENGTH = 50_000
export const TEXT_MAX_LENGTH = 5_000
export const INTEREST_MAX_LENGTH = 60
export const INTERESTS_MAX_COUNT = 30
export const USERNAME_MAX_LENGTH = 64

/** Reason given to pending applications closed when their topic starts. */
export const TOPIC_STARTED_REJECTION_REASON = 'The topic has started'

/** What a refused preference save says (spec section 8), instead of the server's reason. */
export const PREFERENCES_SAVE_FAILED = 'Failed to update preferences. Please try again.'
