import type { Db, Sql } from '../db/connect.ts'
import { messages } from '../notifications/messages.ts'
import type { NewNotification } from '../notifications/notify.ts'
import {
  APPLICATIONS,
  DISMISSALS,
  FEEDBACK,
  INTERESTS,
  INVITATIONS,
  PREFERENCE_CHANGES,
  type SeedPreferences,
  type SeedTopic,
  type SeedUser,
  TOPICS,
  USERS,
} from './seed-data.ts'

/** Keys of the seed data (usernames, topic keys) to the ids the database gave them. */
type Ids = Map<string, string>

/**
 * Loads the demo data of seed-data.ts into an empty database, in one
 * transaction. Returns false and changes nothing when the database already has
 * users. An advisory lock makes instances starting together seed it once.
 *
 * @example
 * if (await seedIfEmpty(db.sql)) console.log('Loaded the demo data.')
 */
export async function seedIfEmpty(sql: Sql): Promise<boolean> {
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(7312002)`
    const [row] = await tx<{ empty: boolean }[]>`
      SELECT NOT EXISTS (SELECT 1 FROM users) AS empty`
    if (!row?.empty) return false
    const userIds = await insertUsers(tx)
    await insertInterests(tx)
    const topicIds = await insertTopics(tx, userIds)
    await insertApplications(tx, topicIds, userIds)
    await insertFeedback(tx, topicIds, userIds)
    await insertMatching(tx, topicIds, userIds)
    await insertNotifications(tx, topicIds, userIds)
    await insertPreferences(tx, userIds)
    return true
  })
}

/** A moment `days` days before now (fractions allowed). */
function ago(db: Db, days: number) {
  return db`now() - ${days}::float8 * interval '1 day'`
}

function idOf(ids: Ids, key: string): string {
  const id = ids.get(key)
  if (id === undefined) throw new Error(`Seed data refers to an unknown "${key}".`)
  return id
}

function userNamed(username: string): SeedUser {
  const user = USERS.find((u) => u.username === username)
  if (!user) throw new Error(`Seed data refers to an unknown user "${username}".`)
  return user
}

function topicKeyed(key: string): SeedTopic {
  const topic = TOPICS.find((t) => t.key === key)
  if (!topic) throw new Error(`Seed data refers to an unknown topic "${key}".`)
  return topic
}

async function insertUsers(db: Db): Promise<Ids> {
  const ids: Ids = new Map()
  for (const u of USERS) {
    const [row] = await db<{ id: string }[]>`
      INSERT INTO users (username, full_name, email, seniority, bio, interests, is_admin,
                         looking_for_mentor, preferred_location, created_at, updated_at)
      VALUES (${u.username}, ${u.fullName}, ${`${u.username}@pairwise.example`},
              ${u.seniority}::seniority, ${u.bio}, ${db.array(u.interests)}::text[],
              ${u.isAdmin ?? false}, ${u.lookingForMentor ?? false},
              ${u.preferredLocation ?? null}::topic_location, ${ago(db, u.joined)}, ${ago(db, u.joined)})
      RETURNING id`
    if (row) ids.set(u.username, row.id)
  }
  return ids
}

async function insertInterests(db: Db): Promise<void> {
  await db`
    INSERT INTO interests (name, created_at)
    SELECT name, now() - interval '120 days' FROM unnest(${db.array(INTERESTS)}::text[]) AS name`
}

async function insertTopics(db: Db, userIds: Ids): Promise<Ids> {
  const ids: Ids = new Map()
  for (const t of TOPICS) {
    const lastChange = Math.min(
      ...[t.proposed, t.reviewed, t.started, t.concluded].filter((d) => d !== undefined),
    )
    const [row] = await db<{ id: string }[]>`
      INSERT INTO topics (subject, description, max_mentees, seniority_required, location,
                          interests, status, mentor_id, mentor_feedback, rejection_reason,
                          created_at, updated_at)
      VALUES (${t.subject}, ${t.description}, ${t.maxMentees},
              ${db.array(t.seniorityRequired)}::seniority[], ${t.location},
              ${db.array(t.interests)}::text[], ${t.status}, ${idOf(userIds, t.mentor)},
              ${t.mentorFeedback ?? null}, ${t.rejectionReason ?? null},
              ${ago(db, t.proposed)}, ${ago(db, lastChange)})
      RETURNING id`
    if (row) ids.set(t.key, row.id)
  }
  return ids
}

/** Inserts the applications, then sets each topic's mentee count from the accepted ones. */
async function insertApplications(db: Db, topicIds: Ids, userIds: Ids): Promise<void> {
  for (const a of APPLICATIONS) {
    await db`
      INSERT INTO applications (topic_id, mentee_id, status, rejection_reason, created_at,
                                updated_at)
      VALUES (${idOf(topicIds, a.topic)}, ${idOf(userIds, a.mentee)}, ${a.status},
              ${a.rejectionReason ?? null}, ${ago(db, a.applied)},
              ${ago(db, a.decided ?? a.applied)})`
  }
  await db`
    UPDATE topics t SET current_mentees = (
      SELECT count(*) FROM applications a WHERE a.topic_id = t.id AND a.status = 'accepted')`
}

async function insertFeedback(db: Db, topicIds: Ids, userIds: Ids): Promise<void> {
  for (const f of FEEDBACK) {
    const isMentor = topicKeyed(f.topic).mentor === f.username
    await db`
      INSERT INTO feedback (topic_id, user_id, feedback, rating, is_mentor, created_at, updated_at)
      VALUES (${idOf(topicIds, f.topic)}, ${idOf(userIds, f.username)}, ${f.feedback},
              ${f.rating}, ${isMentor}, ${ago(db, f.given)}, ${ago(db, f.given)})`
  }
}

/** Invitations to apply and "Not interested" marks (issue 17). */
async function insertMatching(db: Db, topicIds: Ids, userIds: Ids): Promise<void> {
  for (const i of INVITATIONS) {
    const topic = topicKeyed(i.topic)
    const changed = i.declined ?? i.invited
    await db`
      INSERT INTO invitations (topic_id, mentee_id, mentor_id, status, created_at, updated_at)
      VALUES (${idOf(topicIds, i.topic)}, ${idOf(userIds, i.mentee)}, ${idOf(userIds, topic.mentor)},
              ${i.declined === undefined ? 'open' : 'declined'}, ${ago(db, i.invited)},
              ${ago(db, changed)})`
  }
  for (const d of DISMISSALS) {
    await db`
      INSERT INTO topic_dismissals (user_id, topic_id, updated_at)
      VALUES (${idOf(userIds, d.username)}, ${idOf(topicIds, d.topic)}, ${ago(db, d.at)})`
  }
}

/** One notification for one user, `at` days ago. */
type Delivery = { to: string; at: number; notification: NewNotification }

/**
 * The notifications the server would have sent while the seeded history
 * happened: the same events, recipients and texts as the REST routes.
 */
function deliveries(topicIds: Ids): Delivery[] {
  const out: Delivery[] = []
  const person = (username: string) => ({ username, full_name: userNamed(username).fullName })
  const subjectOf = (t: SeedTopic) => ({ id: idOf(topicIds, t.key), subject: t.subject })
  const admins = USERS.filter((u) => u.isAdmin).map((u) => u.username)

  for (const t of TOPICS) {
    const subject = subjectOf(t)
    for (const admin of admins.filter((a) => a !== t.mentor)) {
      out.push({
        to: admin,
        at: t.proposed,
        notification: messages.topicForReview(subject, person(t.mentor)),
      })
    }
    if (t.reviewed !== undefined) {
      const notification =
        t.status === 'rejected'
          ? messages.topicRejected(subject, t.rejectionReason ?? null)
          : messages.topicApproved(subject)
      out.push({ to: t.mentor, at: t.reviewed, notification })
    }
    const accepted = APPLICATIONS.filter((a) => a.topic === t.key && a.status === 'accepted')
    for (const { mentee } of accepted) {
      if (t.started !== undefined)
        out.push({ to: mentee, at: t.started, notification: messages.topicStarted(subject) })
      if (t.concluded !== undefined)
        out.push({ to: mentee, at: t.concluded, notification: messages.topicConcluded(subject) })
    }
  }

  for (const i of INVITATIONS) {
    const topic = topicKeyed(i.topic)
    out.push({
      to: i.mentee,
      at: i.invited,
      notification: messages.invitation(subjectOf(topic), person(topic.mentor)),
    })
  }

  for (const a of APPLICATIONS) {
    const topic = topicKeyed(a.topic)
    const subject = subjectOf(topic)
    out.push({
      to: topic.mentor,
      at: a.applied,
      notification: messages.newApplication(subject, person(a.mentee)),
    })
    const decided = a.decided ?? a.applied
    if (a.status === 'accepted')
      out.push({ to: a.mentee, at: decided, notification: messages.applicationAccepted(subject) })
    if (a.status === 'rejected') {
      const notification = messages.applicationRejected(subject, a.rejectionReason ?? '')
      out.push({ to: a.mentee, at: decided, notification })
    }
  }
  return out
}

/** A notification is read when its user has opened the bell since it arrived. */
async function insertNotifications(db: Db, topicIds: Ids, userIds: Ids): Promise<void> {
  for (const { to, at, notification: n } of deliveries(topicIds)) {
    const read = at > userNamed(to).bellOpened
    await db`
      INSERT INTO notifications (user_id, kind, title, message, link, topic_id, read, created_at)
      VALUES (${idOf(userIds, to)}, ${n.kind}, ${n.title}, ${n.message}, ${n.link}, ${n.topicId},
              ${read}, ${ago(db, at)})`
  }
}

const DEFAULT_PREFERENCES: SeedPreferences = {
  newApplications: true,
  topicStatusUpdates: true,
  applicationStatusUpdates: true,
  newTopicsForReview: true,
}

async function insertPreferences(db: Db, userIds: Ids): Promise<void> {
  for (const u of USERS) {
    const p = { ...DEFAULT_PREFERENCES, ...PREFERENCE_CHANGES[u.username] }
    await db`
      INSERT INTO notification_preferences (user_id, new_applications, topic_status_updates,
                                            application_status_updates, new_topics_for_review)
      VALUES (${idOf(userIds, u.username)}, ${p.newApplications}, ${p.topicStatusUpdates},
              ${p.applicationStatusUpdates}, ${p.newTopicsForReview})`
  }
}
