import type { User } from '../../shared/user.ts'
import type { Db } from '../db/connect.ts'

/** Columns of a user as the API answers it (spec section 3). */
export function userColumns(db: Db) {
  return db`
    u.id, u.username, u.full_name, u.profile_image AS "profileImage", u.seniority,
    u.bio, u.interests, u.is_admin AS "isAdmin", u.looking_for_mentor AS "lookingForMentor",
    u.preferred_location AS "preferredLocation", u.answers_within_days::int AS "answersWithinDays",
    u.has_mentor AS "hasMentor"`
}

export async function findUserByUsername(db: Db, username: string): Promise<User | undefined> {
  const [user] = await db<User[]>`
    SELECT ${userColumns(db)} FROM users u WHERE lower(u.username) = lower(${username})`
  return user
}

export async function findUserById(db: Db, id: string): Promise<User | undefined> {
  const [user] = await db<User[]>`SELECT ${userColumns(db)} FROM users u WHERE u.id = ${id}`
  return user
}

/** Adds interests nobody used before to the known list the pickers offer. */
export async function rememberInterests(db: Db, interests: readonly string[]): Promise<void> {
  if (interests.length === 0) return
  await db`
    INSERT INTO interests (name)
    SELECT DISTINCT ON (lower(i)) i FROM unnest(${db.array([...interests])}::text[]) AS i
    WHERE NOT EXISTS (SELECT 1 FROM interests k WHERE lower(k.name) = lower(i))
    ON CONFLICT DO NOTHING`
}
