import { z } from 'zod'
import { LOCATIONS, SENIORITY_LEVELS, TEXT_MAX_LENGTH, USERNAME_MAX_LENGTH } from './constants.ts'
import { type Actor, allow, type Decision, forbid } from './decision.ts'
import { interestListSchema } from './interests.ts'

export const senioritySchema = z.enum(SENIORITY_LEVELS, {
  error: 'Seniority must be one of junior, mid or senior',
})

/** A user as the API answers it (spec section 3). */
export const userSchema = z.object({
  id: z.uuid(),
  username: z.string(),
  full_name: z.string(),
  profileImage: z.string().nullable(),
  seniority: senioritySchema.nullable(),
  bio: z.string(),
  interests: z.array(z.string()),
  isAdmin: z.boolean(),
  /**
   * The person said in their profile that they are looking for a mentor:
   * mentors with a free place may see them under "People who might fit" and
   * invite them (issue 17). Off until the person turns it on.
   */
  lookingForMentor: z.boolean(),
  /** How the person would like to meet, for matching; null: no preference. */
  preferredLocation: z.enum(LOCATIONS).nullable(),
  /**
   * Derived, read only: how many days this person usually takes to answer an
   * application to their topics (shared/matching.ts answerDaysBucket of the
   * median of their last decisions); null until they have answered enough.
   */
  answersWithinDays: z.number().int().positive().nullable(),
  /** Derived, read only: one of their applications was ever accepted. */
  hasMentor: z.boolean(),
})
export type User = z.infer<typeof userSchema>

/** The small user object embedded in topics (`mentor`). */
export const userSummarySchema = userSchema.pick({
  id: true,
  username: true,
  full_name: true,
  profileImage: true,
})

/** Usernames: letters, digits and . _ - @, as Entra principal names and typed dev names allow. */
export const usernameSchema = z
  .string()
  .trim()
  .min(1, 'Username is required')
  .max(USERNAME_MAX_LENGTH, `A username can have at most ${USERNAME_MAX_LENGTH} characters`)
  .regex(/^[A-Za-z0-9._@-]+$/, 'A username may contain only letters, digits and . _ - @')

/** PATCH /api/users/{username}: every field optional; seniority null clears it. */
export const updateProfileSchema = z.strictObject({
  seniority: senioritySchema.nullable().optional(),
  bio: z
    .string()
    .max(TEXT_MAX_LENGTH, `A bio can have at most ${TEXT_MAX_LENGTH} characters`)
    .optional(),
  interests: interestListSchema.optional(),
  lookingForMentor: z.boolean({ error: 'lookingForMentor must be true or false' }).optional(),
  preferredLocation: z
    .enum(LOCATIONS, { error: 'Preferred location must be one of online, in-person or both' })
    .nullable()
    .optional(),
})
export type UpdateProfileInput = z.infer<typeof updateProfileSchema>

/** POST /api/auth/dev-login. */
export const devLoginSchema = z.strictObject({
  /** A user's id, or a username (a UUID is a username's characters too). */
  userId: usernameSchema,
})

export function checkEditProfile(actor: Actor, profileUserId: string): Decision {
  if (actor.id === profileUserId || actor.isAdmin) return allow
  return forbid('Only the owner of a profile or an administrator can edit it.')
}

/**
 * The administration screens (/admin/topics, /admin/users), their links, and
 * the admin-only API: administrators only (spec section 6).
 */
export function checkAdminister(
  actor: Actor,
  refusal = 'Only administrators can do this.',
): Decision {
  return actor.isAdmin ? allow : forbid(refusal)
}

export function canAdminister(actor: Actor): boolean {
  return checkAdminister(actor).ok
}

export function checkToggleAdmin(actor: Actor, targetUserId: string): Decision {
  const admin = checkAdminister(actor, 'Only administrators can change administrator status.')
  if (!admin.ok) return admin
  if (actor.id === targetUserId) {
    return forbid('You cannot change your own administrator status; ask another administrator.')
  }
  return allow
}

/** Initials for an avatar without an image: "Ada Lovelace" → "AL". */
export function initialsOf(fullName: string, username: string): string {
  const words = fullName.trim().split(/\s+/).filter(Boolean)
  const letters =
    words.length >= 2
      ? `${words[0]?.[0] ?? ''}${words.at(-1)?.[0] ?? ''}`
      : (words[0] ?? username).slice(0, 2)
  return letters.toUpperCase()
}

/**
 * GET /api/auth/session: who is signed in, `null` for nobody. The PWA asks
 * this rather than GET /api/user, whose 401 for a signed-out visitor every
 * browser logs as a console error.
 */
export const signedInSchema = z.object({ user: userSchema.nullable() })
