import { z } from 'zod'

/** The events that notify someone (ARCHITECTURE.md); each maps to a preference. */
export const NOTIFICATION_KINDS = [
  'new_application',
  'topic_approved',
  'topic_rejected',
  'application_accepted',
  'application_rejected',
  'topic_for_review',
  'topic_started',
  'topic_concluded',
  'invitation',
  // Follow-through (issue 18): reminders and check-ins the server schedules itself.
  /** Mentor: an application has waited for an answer (3 days by default). */
  'reminder_answer',
  /** Mentee: their application is still open (7 days by default). */
  'application_waiting',
  /** Mentor: an accepted mentee, but the topic has not started (14 days by default). */
  'reminder_start',
  /** Mentor: the topic has run the programme's length (6 months by default). */
  'reminder_conclude',
  /** Mentor and mentees: the topic concluded and they left no feedback (3 days by default). */
  'reminder_feedback',
  /** Mentor and mentees: no activity on a started topic (21 days by default); they can answer. */
  'check_in',
] as const
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number]

/** The kinds the server sends on its own schedule; they follow the "reminders" preference. */
export const REMINDER_KINDS = [
  'reminder_answer',
  'application_waiting',
  'reminder_start',
  'reminder_conclude',
  'reminder_feedback',
  'check_in',
] as const satisfies readonly NotificationKind[]

/**
 * Decisions on the person's own application or topic: outside the daily
 * noise budget (issue 18). A topic starting or concluding is its mentor's
 * decision on the mentorship of each of its mentees.
 */
const DECISION_KINDS = [
  'application_accepted',
  'application_rejected',
  'topic_approved',
  'topic_rejected',
  'topic_started',
  'topic_concluded',
] as const satisfies readonly NotificationKind[]

export function isDecision(kind: NotificationKind): boolean {
  return (DECISION_KINDS as readonly NotificationKind[]).includes(kind)
}

/** Reminders a person can put off once by a day ("Remind me tomorrow"). */
const SNOOZABLE_KINDS = [
  'reminder_answer',
  'reminder_start',
  'reminder_conclude',
  'reminder_feedback',
] as const satisfies readonly NotificationKind[]

export function isSnoozable(kind: NotificationKind): boolean {
  return (SNOOZABLE_KINDS as readonly NotificationKind[]).includes(kind)
}

/** How long "Remind me tomorrow" puts a reminder off. */
export const SNOOZE_HOURS = 24

/** The answers to a check-in ("How is it going?"). */
export const CHECK_IN_RESPONSES = ['going_well', 'need_help'] as const
export type CheckInResponse = (typeof CHECK_IN_RESPONSES)[number]
export const CHECK_IN_RESPONSE_LABELS: Record<CheckInResponse, string> = {
  going_well: 'Going well',
  need_help: 'We could use some help',
}

/** A notification as the API answers it (spec section 3), plus its kind, link and follow-through state. */
export const notificationSchema = z.object({
  id: z.uuid(),
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  message: z.string(),
  link: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  read: z.boolean(),
  /** The topic it is about (push notifications about one topic replace each other). */
  topicId: z.uuid().nullable(),
  /** Set once "Remind me tomorrow" was used: the reminder comes again then (once). */
  snoozedUntil: z.iso.datetime({ offset: true }).nullable(),
  /** A check-in's answer, once given. */
  response: z.enum(CHECK_IN_RESPONSES).nullable(),
})
export type Notification = z.infer<typeof notificationSchema>

/** POST /api/notifications/{id}/response: answering a check-in. */
export const checkInResponseSchema = z.strictObject({
  response: z.enum(CHECK_IN_RESPONSES, { error: 'The answer must be going_well or need_help' }),
})
