import {
  CHECK_IN_RESPONSE_LABELS,
  type CheckInResponse,
  checkInResponseSchema,
  isSnoozable,
  SNOOZE_HOURS,
} from '../../../../shared/notification.ts'
import { readRow } from '../engine/view.ts'
import {
  found,
  type MutationContext,
  MutationRefused,
  type Queued,
  queueMutation,
  validate,
} from './mutation.ts'

/**
 * The follow-through answers to a reminder in the bell (issue 18): "Remind
 * me tomorrow" and a check-in's answer. Both are outbox rows like every
 * write, so they work offline; a 409 from the server (already snoozed,
 * already answered) drops the optimistic change and shows the usual toast.
 */

/**
 * POST /api/notifications/{id}/snooze (no body): the reminder comes back
 * once, SNOOZE_HOURS from now.
 */
export async function snoozeNotification(
  ctx: MutationContext,
  notificationId: string,
): Promise<Queued> {
  return queueMutation(ctx, async () => {
    const notification = found(
      await readRow(ctx.db, 'notifications', notificationId),
      'Notification not found',
    )
    if (!isSnoozable(notification.kind)) {
      throw new MutationRefused(409, 'This notification cannot be put off.')
    }
    if (notification.snoozedUntil) {
      throw new MutationRefused(409, 'This reminder is already put off until tomorrow.')
    }
    const snoozedUntil = new Date(ctx.now() + SNOOZE_HOURS * 3_600_000).toISOString()
    return {
      kind: 'snooze-notification',
      method: 'POST',
      path: `/api/notifications/${encodeURIComponent(notificationId)}/snooze`,
      label: `Remind me of “${notification.title}” tomorrow`,
      effects: [{ table: 'notifications', rowId: notificationId, op: { set: { snoozedUntil } } }],
      confirmIn: 'notifications',
    }
  })
}

/** POST /api/notifications/{id}/response with `{ response }`: answering a check-in once. */
export async function answerCheckIn(
  ctx: MutationContext,
  notificationId: string,
  response: CheckInResponse,
): Promise<Queued> {
  const data = validate(checkInResponseSchema, { response })
  return queueMutation(ctx, async () => {
    const notification = found(
      await readRow(ctx.db, 'notifications', notificationId),
      'Notification not found',
    )
    if (notification.kind !== 'check_in') {
      throw new MutationRefused(409, 'Only a check-in can be answered.')
    }
    if (notification.response) {
      throw new MutationRefused(409, 'This check-in was already answered.')
    }
    return {
      kind: 'answer-check-in',
      method: 'POST',
      path: `/api/notifications/${encodeURIComponent(notificationId)}/response`,
      body: data,
      label: `Answer “${notification.title}”: ${CHECK_IN_RESPONSE_LABELS[data.response]}`,
      effects: [
        {
          table: 'notifications',
          rowId: notificationId,
          op: { set: { response: data.response } },
        },
      ],
      confirmIn: 'notifications',
    }
  })
}
