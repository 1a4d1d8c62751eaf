import { Hono } from 'hono'
import {
  checkInResponseSchema,
  isSnoozable,
  type NotificationKind,
  notificationSchema,
  SNOOZE_HOURS,
} from '../../shared/notification.ts'
import type { Db } from '../db/connect.ts'
import { callerOn } from '../http/current-user.ts'
import type { AppEnv } from '../http/env.ts'
import { ApiError } from '../http/errors.ts'
import { body } from '../http/input.ts'
import { route } from '../http/route.ts'
import { found } from '../http/validate.ts'
import { selectNotifications } from '../notifications/queries.ts'

const NOT_FOUND = 'Notification not found'
const PUT_OFF_ONCE = 'This reminder was already put off once: it cannot be put off again.'

/** /api/notifications/{id}/snooze and /response: acting on a reminder or a check-in. */
export const notificationActionRoutes = new Hono<AppEnv>()

type Owned = {
  id: string
  kind: NotificationKind
  topicId: string | null
  snoozedUntil: Date | null
  response: string | null
}

/** The caller's notification, locked for the change; someone else's is as good as missing. */
async function lockOwn(db: Db, id: string, userId: string): Promise<Owned> {
  const [row] = await db<Owned[]>`
    SELECT id, kind, topic_id AS "topicId", snoozed_until AS "snoozedUntil", response
    FROM notifications WHERE id = ${id} AND user_id = ${userId} FOR UPDATE`
  return found(row, NOT_FOUND)
}

notificationActionRoutes.post(
  '/:id/snooze',
  route({
    tag: 'Notifications',
    errors: [401, 404, 409],
    summary: 'Remind me tomorrow',
    description: `Puts one of the caller's reminders off by ${SNOOZE_HOURS} hours: if the caller still has not acted by then, the reminder comes once more. Only reminders to answer, start, conclude or leave feedback, and only once (409 otherwise). Marks it read. No body.`,
    response: { status: 200, schema: notificationSchema, description: 'The notification' },
  }),
  async (c) => {
    const { user, id, db } = callerOn(c, NOT_FOUND)
    const notification = await lockOwn(db, id, user.id)
    if (!isSnoozable(notification.kind)) {
      throw new ApiError(409, 'Only a reminder can be put off, and this notification is not one.')
    }
    if (notification.snoozedUntil) throw new ApiError(409, PUT_OFF_ONCE)
    // The reminder that came again after a snooze is not put off a second time.
    const [again] = await db`
      SELECT 1 FROM reminders_sent WHERE notification_id = ${id} AND snooze_resent_at IS NOT NULL`
    if (again) throw new ApiError(409, PUT_OFF_ONCE)
    await db`
      UPDATE notifications SET snoozed_until = now() + make_interval(hours => ${SNOOZE_HOURS}),
        read = true
      WHERE id = ${id}`
    const [answer] = await selectNotifications(db, user.id, id)
    return c.json(found(answer, NOT_FOUND))
  },
)

notificationActionRoutes.post(
  '/:id/response',
  route({
    tag: 'Notifications',
    errors: [401, 404, 409],
    summary: 'Answer a check-in',
    description:
      'Answers one of the caller’s "How is it going?" check-ins, once: going_well counts as activity on the topic; need_help puts it on the administrators’ "Needs a check-in" list until the next activity. Marks it read. 409 for another kind of notification or a check-in already answered.',
    response: { status: 200, schema: notificationSchema, description: 'The answered check-in' },
  }),
  body(checkInResponseSchema),
  async (c) => {
    const { user, id, db } = callerOn(c, NOT_FOUND)
    const notification = await lockOwn(db, id, user.id)
    if (notification.kind !== 'check_in') {
      throw new ApiError(409, 'Only a check-in ("How is it going?") can be answered.')
    }
    if (notification.response) throw new ApiError(409, 'You already answered this check-in.')
    const { response } = await c.var.body()
    await db`
      UPDATE notifications SET response = ${response}, responded_at = now(), read = true
      WHERE id = ${id}`
    if (response === 'going_well' && notification.topicId) {
      await db`UPDATE topics SET last_activity_at = now() WHERE id = ${notification.topicId}`
    }
    const [answer] = await selectNotifications(db, user.id, id)
    return c.json(found(answer, NOT_FOUND))
  },
)
