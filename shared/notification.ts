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
] as const
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number]

/** A notification as the API answers it (spec section 3), plus its kind and link. */
export const notificationSchema = z.object({
  id: z.uuid(),
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  message: z.string(),
  link: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  read: z.boolean(),
})
export type Notification = z.infer<typeof notificationSchema>
