import type { NewNotification } from './notify.ts'

/** The texts of every notification event, each naming the topic it is about. */
export const messages = {
  newApplication: (topic: Subject, mentee: Person): NewNotification => ({
    kind: 'new_application',
    topicId: topic.id,
    title: 'New application',
    message: `${nameOf(mentee)} applied to your topic "${topic.subject}".`,
    link: '/dashboard',
  }),
  topicForReview: (topic: Subject, mentor: Person): NewNotification => ({
    kind: 'topic_for_review',
    topicId: topic.id,
    title: 'New topic for review',
    message: `${nameOf(mentor)} proposed "${topic.subject}". It is waiting for your review.`,
    link: '/admin/topics',
  }),
  topicApproved: (topic: Subject): NewNotification => ({
    kind: 'topic_approved',
    topicId: topic.id,
    title: 'Topic approved',
    message: `Your topic "${topic.subject}" was approved and is now open for applications.`,
    link: `/topics/${topic.id}`,
  }),
  topicRejected: (topic: Subject, reason: string | null): NewNotification => ({
    kind: 'topic_rejected',
    topicId: topic.id,
    title: 'Topic rejected',
    message: `Your topic "${topic.subject}" was not approved.${reason ? ` Reason: ${reason}` : ''}`,
    link: '/dashboard',
  }),
  applicationAccepted: (topic: Subject): NewNotification => ({
    kind: 'application_accepted',
    topicId: topic.id,
    title: 'Application accepted',
    message: `You were accepted to "${topic.subject}". Your mentor will be in touch to get started.`,
    link: `/topics/${topic.id}`,
  }),
  applicationRejected: (topic: Subject, reason: string): NewNotification => ({
    kind: 'application_rejected',
    topicId: topic.id,
    title: 'Application rejected',
    message: `Your application to "${topic.subject}" was not accepted. Reason: ${reason}`,
    link: '/dashboard',
  }),
  topicStarted: (topic: Subject): NewNotification => ({
    kind: 'topic_started',
    topicId: topic.id,
    title: 'Topic started',
    message: `"${topic.subject}" has started. Time to meet your mentor!`,
    link: `/topics/${topic.id}`,
  }),
  topicConcluded: (topic: Subject): NewNotification => ({
    kind: 'topic_concluded',
    topicId: topic.id,
    title: 'Topic concluded',
    message: `"${topic.subject}" has concluded. Leave feedback on how it went.`,
    link: `/topics/${topic.id}`,
  }),
  invitation: (topic: Subject, mentor: Person): NewNotification => ({
    kind: 'invitation',
    topicId: topic.id,
    title: 'Invitation to apply',
    message: `${nameOf(mentor)} invited you to apply for "${topic.subject}".`,
    link: `/topics/${topic.id}`,
  }),
  // Reminders and check-ins (issue 18, decision 0039): sent by the reminder runner.
  reminderAnswer: (
    topic: Subject,
    mentee: Person,
    applicationId: string,
    days: number,
  ): NewNotification => ({
    kind: 'reminder_answer',
    topicId: topic.id,
    title: 'Waiting for your answer',
    message: `${nameOf(mentee)} applied to "${topic.subject}" ${daysText(days)} ago and is waiting for your answer.`,
    link: `/dashboard?application=${applicationId}`,
  }),
  applicationWaiting: (topic: Subject, days: number): NewNotification => ({
    kind: 'application_waiting',
    topicId: topic.id,
    title: 'Your application is still open',
    message: `Your application to "${topic.subject}" has waited ${daysText(days)} for an answer. We have let the programme team know.`,
    link: `/topics/${topic.id}`,
  }),
  reminderStart: (topic: Subject, days: number): NewNotification => ({
    kind: 'reminder_start',
    topicId: topic.id,
    title: 'Ready to start?',
    message: `You accepted a mentee to "${topic.subject}" ${daysText(days)} ago. Start the topic once you have met.`,
    link: `/topics/${topic.id}`,
  }),
  reminderConclude: (topic: Subject, months: number): NewNotification => ({
    kind: 'reminder_conclude',
    topicId: topic.id,
    title: 'Time to wrap up?',
    message: `"${topic.subject}" started ${months === 1 ? 'a month' : `${months} months`} ago. Conclude it when you are done.`,
    link: `/topics/${topic.id}`,
  }),
  reminderFeedback: (topic: Subject): NewNotification => ({
    kind: 'reminder_feedback',
    topicId: topic.id,
    title: 'How did it go?',
    message: `"${topic.subject}" has concluded. Leave your feedback: it takes a minute.`,
    link: `/topics/${topic.id}#feedback`,
  }),
  checkIn: (topic: Subject, days: number): NewNotification => ({
    kind: 'check_in',
    topicId: topic.id,
    title: 'How is it going?',
    message: `"${topic.subject}" has been quiet here for ${daysText(days)}. How is it going?`,
    link: `/topics/${topic.id}`,
  }),
}

type Subject = { id: string; subject: string }
type Person = { username: string; full_name: string }

function nameOf(person: Person): string {
  return person.full_name.trim() || person.username
}

function daysText(days: number): string {
  return days === 1 ? '1 day' : `${days} days`
}
