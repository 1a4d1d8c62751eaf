import { z } from 'zod'
import type { NotificationKind } from './notification.ts'

const emailNotificationsSchema = z.strictObject({
  newApplications: z.boolean({ error: 'newApplications must be true or false' }),
  topicStatusUpdates: z.boolean({ error: 'topicStatusUpdates must be true or false' }),
  applicationStatusUpdates: z.boolean({ error: 'applicationStatusUpdates must be true or false' }),
  newTopicsForReview: z.boolean({ error: 'newTopicsForReview must be true or false' }),
})

/** Notification preferences (spec section 3); GET answers it, PATCH takes the full object. */
export const preferencesSchema = z.strictObject({
  emailNotifications: emailNotificationsSchema,
})
export type Preferences = z.infer<typeof preferencesSchema>
export type PreferenceKey = keyof Preferences['emailNotifications']

export const DEFAULT_PREFERENCES: Preferences = {
  emailNotifications: {
    newApplications: true,
    topicStatusUpdates: true,
    applicationStatusUpdates: true,
    newTopicsForReview: true,
  },
}

/**
 * Which preference governs whether an event also goes out by e-mail and push.
 * Topic started/concluded and invitations to apply fall under application
 * status updates: they concern the mentee's enrolment.
 */
export const PREFERENCE_FOR_KIND: Record<NotificationKind, PreferenceKey> = {
  new_application: 'newApplications',
  topic_approved: 'topicStatusUpdates',
  topic_rejected: 'topicStatusUpdates',
  application_accepted: 'applicationStatusUpdates',
  application_rejected: 'applicationStatusUpdates',
  topic_for_review: 'newTopicsForReview',
  topic_started: 'applicationStatusUpdates',
  topic_concluded: 'applicationStatusUpdates',
  // A mentor's invitation to apply concerns the mentee's applications too.
  invitation: 'applicationStatusUpdates',
}

export function wantsDelivery(preferences: Preferences, kind: NotificationKind): boolean {
  return preferences.emailNotifications[PREFERENCE_FOR_KIND[kind]]
}
