import { DEFAULT_LOCATION, type Location, type Seniority } from '../../../../shared/constants.ts'
import { type TopicInput, topicInputSchema } from '../../../../shared/topic.ts'

/** What the topic form holds while it is being filled in. */
export type TopicFormValues = {
  subject: string
  description: string
  maxMentees: number
  seniorityRequired: Seniority[]
  location: Location
  interests: string[]
}

export type TopicFormField = keyof TopicFormValues
export type TopicFormErrors = Partial<Record<TopicFormField, string>>

/** A new topic: nothing written yet, online (spec section 5's default). */
export const EMPTY_TOPIC: TopicFormValues = {
  subject: '',
  description: '',
  maxMentees: 1,
  seniorityRequired: [],
  location: DEFAULT_LOCATION,
  interests: [],
}

/** The form's values for an existing topic (the edit screen). */
export function valuesOfTopic(topic: TopicFormValues): TopicFormValues {
  return {
    subject: topic.subject,
    description: topic.description,
    maxMentees: topic.maxMentees,
    seniorityRequired: [...topic.seniorityRequired],
    location: topic.location,
    interests: [...topic.interests],
  }
}

/**
 * Checks the values with the shared schema (the server's own rules and
 * messages); answers the input to send, or the first message per field.
 */
export function validateTopic(
  values: TopicFormValues,
): { ok: true; input: TopicInput } | { ok: false; errors: TopicFormErrors } {
  const result = topicInputSchema.safeParse(values)
  if (result.success) return { ok: true, input: { ...values, subject: result.data.subject } }
  const errors: TopicFormErrors = {}
  for (const issue of result.error.issues) {
    const field = issue.path[0] as TopicFormField | undefined
    if (field && !errors[field]) errors[field] = issue.message
  }
  return { ok: false, errors }
}
