import type { EmailCategory, PreferenceKey } from '../../../../shared/preferences.ts'

/** The spec's four e-mail switches (section 2), in its words. */
export const SWITCHES: {
  key: PreferenceKey
  label: string
  description: string
  adminOnly?: true
}[] = [
  {
    key: 'newApplications',
    label: 'New Applications',
    description: 'Notify when someone applies to your topics',
  },
  {
    key: 'topicStatusUpdates',
    label: 'Topic Status Updates',
    description: 'When your topics are approved or rejected',
  },
  {
    key: 'applicationStatusUpdates',
    label: 'Application Status Updates',
    description: 'When your applications are accepted or rejected',
  },
  {
    key: 'newTopicsForReview',
    label: 'New Topics for Review',
    description: 'When new topics need review',
    adminOnly: true,
  },
]

/** Issue 18's fifth category: reminders and check-ins. */
export const REMINDERS_SWITCH = {
  label: 'Reminders',
  description:
    'Reminders and check-ins about your topics and applications, also by e-mail and push',
}

export const CATEGORY_LABELS: Record<EmailCategory, string> = {
  newApplications: 'New Applications',
  topicStatusUpdates: 'Topic Status Updates',
  applicationStatusUpdates: 'Application Status Updates',
  newTopicsForReview: 'New Topics for Review',
  reminders: REMINDERS_SWITCH.label,
}
