import postgres from 'postgres'
import { USERNAME_MAX_LENGTH } from '../../shared/constants.ts'
import type { User } from '../../shared/user.ts'
import type { Db } from '../db/connect.ts'
import { found } from '../http/validate.ts'
import { findUserById } from '../users/queries.ts'

/** What Microsoft Graph's `/me` tells about the person signing in. */
export type MicrosoftProfile = {
  /** The Entra object id: the stable key of the account. */
  id: string
  userPrincipalName?: string | null
  displayName?: string | null
  givenName?: string | null
  surname?: string | null
  mail?: string | null
}

type NewUser = {
  username: string
  fullName: string
  email?: string | null
  entraOid?: string | null
  profileImage?: string | null
}

/** Creates a non-admin user with default notification preferences. */
export async function createUser(db: Db, user: NewUser): Promise<User> {
  const [row] = await db<{ id: string }[]>`
    INSERT INTO users (username, full_name, email, entra_oid, profile_image)
    VALUES (${user.username}, ${user.fullName}, ${user.email ?? null}, ${user.entraOid ?? null},
            ${user.profileImage ?? null})
    RETURNING id`
  const id = found(row, 'User not found').id
  await db`INSERT INTO notification_preferences (user_id) VALUES (${id})`
  return found(await findUserById(db, id), 'User not found')
}

/**
 * A username from a user principal name: the part before the @, lower case,
 * with the characters usernames may not hold removed ("Jane.Doe@contoso.com"
 * gives "jane.doe"; a guest's "ada_example.com#EXT#@..." gives "ada_example.com").
 */
export function usernameFromPrincipalName(principalName: string | null | undefined): string {
  const local = (principalName ?? '').split('@')[0] ?? ''
  const cleaned = local
    .replace(/#EXT#$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '')
    .replace(/^[._-]+|[._-]+$/g, '')
  // Leave room for a number that makes it unique.
  return cleaned.slice(0, USERNAME_MAX_LENGTH - 4) || 'user'
}

/** The first of base, base2, base3… that no user has (regardless of case). */
async function freeUsername(db: Db, base: string): Promise<string> {
  const pattern = `^${base.replace(/[.]/g, '\\.')}[0-9]+$`
  const taken = new Set(
    (
      await db<{ name: string }[]>`
        SELECT lower(username) AS name FROM users
        WHERE lower(username) = ${base} OR lower(username) ~ ${pattern}`
    ).map((r) => r.name),
  )
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}${n}`
    if (!taken.has(candidate)) return candidate
  }
}

function fullNameOf(profile: MicrosoftProfile, fallback: string): string {
  const display = profile.displayName?.trim()
  if (display) return display
  const parts = [profile.givenName, profile.surname].map((p) => p?.trim()).filter(Boolean)
  return parts.length ? parts.join(' ') : fallback
}

function emailOf(profile: MicrosoftProfile): string | null {
  const mail = profile.mail?.trim() || profile.userPrincipalName?.trim()
  return mail?.includes('@') ? mail : null
}

/**
 * The user for a Microsoft sign-in, keyed by the Entra object id. The first
 * sign-in creates the user with a unique username from the principal name;
 * later sign-ins refresh full name and e-mail (the username stays, since
 * profile links use it). `photo`: a data URL, null for "has no photo", or
 * undefined when it could not be read (the stored one stays).
 *
 * A user created another way (demo data, development sign-in) with the same
 * username is never taken over: the new account gets the next free name.
 */
export async function upsertMicrosoftUser(
  db: postgres.TransactionSql,
  profile: MicrosoftProfile,
  photo: string | null | undefined,
): Promise<User> {
  const email = emailOf(profile)
  const [existing] = await db<{ id: string; username: string }[]>`
    SELECT id, username FROM users WHERE entra_oid = ${profile.id} FOR UPDATE`
  if (existing) {
    await db`
      UPDATE users SET
        full_name = ${fullNameOf(profile, existing.username)},
        email = ${email},
        profile_image = ${photo === undefined ? db`profile_image` : photo},
        updated_at = now()
      WHERE id = ${existing.id}`
    return found(await findUserById(db, existing.id), 'User not found')
  }
  const base = usernameFromPrincipalName(profile.userPrincipalName ?? profile.mail)
  for (let attempt = 0; ; attempt++) {
    const username = await freeUsername(db, base)
    try {
      return (await db.savepoint((sp) =>
        createUser(sp, {
          username,
          fullName: fullNameOf(profile, username),
          email,
          entraOid: profile.id,
          profileImage: photo ?? null,
        }),
      )) as User
    } catch (error) {
      // Someone else took the name, or the same account signed in twice at once.
      if (!(error instanceof postgres.PostgresError) || error.code !== '23505' || attempt >= 5)
        throw error
      if (error.constraint_name === 'users_entra_oid_key') {
        return upsertMicrosoftUser(db, profile, photo)
      }
    }
  }
}
