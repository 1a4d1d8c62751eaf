import {
  DEFAULT_PREFERENCES,
  type Preferences,
  preferencesSchema,
} from '../../../../shared/preferences.ts'
import {
  checkEditProfile,
  checkToggleAdmin,
  type UpdateProfileInput,
  updateProfileSchema,
} from '../../../../shared/user.ts'
import {
  preferencesOf,
  readPreferences,
  readRow,
  readTable,
  readUserByUsername,
} from '../engine/view.ts'
import type { Effect } from './mutation.ts'
import {
  actorOf,
  enforce,
  found,
  type MutationContext,
  type Queued,
  queueMutation,
  validate,
} from './mutation.ts'

/** PATCH /api/users/{username}: the owner or an admin edits seniority, bio and interests. */
export async function updateProfile(
  ctx: MutationContext,
  username: string,
  input: UpdateProfileInput,
): Promise<Queued> {
  const data = validate(updateProfileSchema, input)
  return queueMutation(ctx, async () => {
    const user = found(await readUserByUsername(ctx.db, username), 'User not found')
    enforce(checkEditProfile(await actorOf(ctx), user.id))
    const set: Record<string, unknown> = {}
    if (data.seniority !== undefined) set.seniority = data.seniority
    if (data.bio !== undefined) set.bio = data.bio
    if (data.interests !== undefined) set.interests = data.interests
    if (data.lookingForMentor !== undefined) set.lookingForMentor = data.lookingForMentor
    if (data.preferredLocation !== undefined) set.preferredLocation = data.preferredLocation
    const known = new Set((await readTable(ctx.db, 'interests')).map((i) => i.name.toLowerCase()))
    const interests: Effect[] = (data.interests ?? [])
      .filter((name) => !known.has(name.toLowerCase()))
      .map((name) => ({ table: 'interests', rowId: name, op: { create: { name, version: 0 } } }))
    return {
      kind: 'update-profile',
      method: 'PATCH',
      path: `/api/users/${encodeURIComponent(user.username)}`,
      body: data,
      label: user.id === ctx.me.id ? 'Edit your profile' : `Edit ${user.full_name}’s profile`,
      effects: [{ table: 'users', rowId: user.id, op: { set } }, ...interests],
      confirmIn: 'users',
    }
  })
}

/** A change of the preferences: any settings, and any fields of the grouped ones. */
export type PreferencesChange = Partial<
  Omit<Preferences, 'emailNotifications' | 'emailDelivery' | 'quietHours'>
> & {
  emailNotifications?: Partial<Preferences['emailNotifications']>
  emailDelivery?: Partial<Preferences['emailDelivery']>
  quietHours?: Partial<Preferences['quietHours']>
}

/**
 * PATCH /api/user/notification-preferences: the full preferences object,
 * the change merged with the current (merged) row inside the write's
 * transaction, field by field, so two quick changes never undo each other.
 */
export async function savePreferences(
  ctx: MutationContext,
  change: PreferencesChange,
): Promise<Queued> {
  return queueMutation(ctx, async () => {
    const current = preferencesOf((await readPreferences(ctx.db)) ?? DEFAULT_PREFERENCES)
    const data = validate(preferencesSchema, {
      ...current,
      ...change,
      emailNotifications: { ...current.emailNotifications, ...change.emailNotifications },
      emailDelivery: { ...current.emailDelivery, ...change.emailDelivery },
      quietHours: { ...current.quietHours, ...change.quietHours },
    })
    return {
      kind: 'save-preferences',
      method: 'PATCH',
      path: '/api/user/notification-preferences',
      body: data,
      label: 'Save your notification preferences',
      effects: [
        {
          table: 'preferences',
          rowId: 'me',
          op: { create: { key: 'me', ...data }, set: { ...data } },
        },
      ],
      confirmIn: 'preferences',
    }
  })
}

/**
 * PATCH /api/notifications/{id}: marks one notification read. Answers null,
 * queueing nothing, when it is read already.
 */
export async function markNotificationRead(
  ctx: MutationContext,
  notificationId: string,
): Promise<Queued | null> {
  const notification = found(
    await readRow(ctx.db, 'notifications', notificationId),
    'Notification not found',
  )
  if (notification.read) return null
  return queueMutation(ctx, async () => ({
    kind: 'mark-notification-read',
    method: 'PATCH',
    path: `/api/notifications/${encodeURIComponent(notificationId)}`,
    label: `Mark “${notification.title}” read`,
    effects: [{ table: 'notifications', rowId: notificationId, op: { set: { read: true } } }],
    confirmIn: 'notifications',
  }))
}

/** POST /api/admin/users/{id}/toggle-admin: an administrator grants or revokes another's rights. */
export async function toggleAdmin(ctx: MutationContext, userId: string): Promise<Queued> {
  return queueMutation(ctx, async () => {
    enforce(checkToggleAdmin(await actorOf(ctx), userId))
    const user = found(await readRow(ctx.db, 'users', userId), 'User not found')
    return {
      kind: 'toggle-admin',
      method: 'POST',
      path: `/api/admin/users/${encodeURIComponent(userId)}/toggle-admin`,
      label: `${user.isAdmin ? 'Revoke' : 'Grant'} administrator rights of ${user.full_name}`,
      effects: [{ table: 'users', rowId: userId, op: { flip: ['isAdmin'] } }],
      confirmIn: 'users',
    }
  })
}
