import type { ApplicationDecision } from '../../../../shared/application.ts'
import type { FeedbackInput } from '../../../../shared/feedback.ts'
import type { CheckInResponse } from '../../../../shared/notification.ts'
import type { MatchWeights } from '../../../../shared/programme-settings.ts'
import type { ReviewDecision, TopicInput } from '../../../../shared/topic.ts'
import type { UpdateProfileInput } from '../../../../shared/user.ts'
import {
  acceptApplication,
  applyToTopic,
  decideApplication,
  giveFeedback,
  rejectApplication,
} from './applications.ts'
import { declineInvitation, dismissTopic, inviteToTopic, saveMatchWeights } from './matching.ts'
import type { MutationContext } from './mutation.ts'
import { answerCheckIn, snoozeNotification } from './notifications.ts'
import { type ProgrammeSettingsUpdate, saveProgrammeSettings } from './settings.ts'
import { concludeTopic, createTopic, editTopic, reviewTopic, startTopic } from './topics.ts'
import {
  markNotificationRead,
  type PreferencesChange,
  savePreferences,
  toggleAdmin,
  updateProfile,
} from './users.ts'

/**
 * Every write of the spec (section 7), bound to one user's database. Each
 * validates its input with the shared schema and checks the shared rules,
 * refusing at once with `MutationRefused` (status and the server's sentence),
 * or queues the write with its optimistic change and answers its mutation id.
 *
 * @example
 * const { mutationId } = await mutate.applyToTopic(topic.id)
 */
export type Mutations = ReturnType<typeof bindMutations>

export function bindMutations(ctx: MutationContext) {
  return {
    applyToTopic: (topicId: string) => applyToTopic(ctx, topicId),
    decideApplication: (
      applicationId: string,
      decision: { status: ApplicationDecision['status']; rejectionReason?: string | null },
    ) => decideApplication(ctx, applicationId, decision),
    acceptApplication: (applicationId: string) => acceptApplication(ctx, applicationId),
    rejectApplication: (applicationId: string, reason: string) =>
      rejectApplication(ctx, applicationId, reason),
    reviewTopic: (
      topicId: string,
      decision: { status: ReviewDecision['status']; rejectionReason?: string | null },
    ) => reviewTopic(ctx, topicId, decision),
    startTopic: (topicId: string) => startTopic(ctx, topicId),
    concludeTopic: (topicId: string, input: { mentorFeedback: string }) =>
      concludeTopic(ctx, topicId, input),
    giveFeedback: (topicId: string, input: FeedbackInput) => giveFeedback(ctx, topicId, input),
    createTopic: (input: TopicInput) => createTopic(ctx, input),
    editTopic: (topicId: string, input: TopicInput) => editTopic(ctx, topicId, input),
    updateProfile: (username: string, input: UpdateProfileInput) =>
      updateProfile(ctx, username, input),
    savePreferences: (change: PreferencesChange) => savePreferences(ctx, change),
    markNotificationRead: (notificationId: string) => markNotificationRead(ctx, notificationId),
    toggleAdmin: (userId: string) => toggleAdmin(ctx, userId),
    dismissTopic: (topicId: string, dismissed = true) => dismissTopic(ctx, topicId, dismissed),
    inviteToTopic: (topicId: string, menteeId: string) => inviteToTopic(ctx, topicId, menteeId),
    declineInvitation: (invitationId: string) => declineInvitation(ctx, invitationId),
    saveMatchWeights: (weights: MatchWeights) => saveMatchWeights(ctx, weights),
    saveProgrammeSettings: (update: ProgrammeSettingsUpdate, label?: string) =>
      saveProgrammeSettings(ctx, update, label),
    snoozeNotification: (notificationId: string) => snoozeNotification(ctx, notificationId),
    answerCheckIn: (notificationId: string, response: CheckInResponse) =>
      answerCheckIn(ctx, notificationId, response),
  }
}
