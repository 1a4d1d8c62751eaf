import { randomUUID } from 'node:crypto'
import type { SyncApplication, SyncDb, SyncTopic, SyncUser } from '../engine/db.ts'
import { createSyncDb } from '../engine/db.ts'
import type { MutationContext } from '../mutators/mutation.ts'

// Rows as a pull delivers them, for tests that need no server.

export function userRow(overrides: Partial<SyncUser> = {}): SyncUser {
  const id = overrides.id ?? randomUUID()
  const username = overrides.username ?? `user-${id.slice(0, 8)}`
  return {
    id,
    username,
    full_name: `Full ${username}`,
    profileImage: null,
    seniority: 'junior',
    bio: '',
    interests: [],
    isAdmin: false,
    lookingForMentor: false,
    preferredLocation: null,
    answersWithinDays: null,
    hasMentor: false,
    version: 1,
    ...overrides,
  }
}

export function topicRow(mentor: SyncUser, overrides: Partial<SyncTopic> = {}): SyncTopic {
  return {
    id: randomUUID(),
    subject: 'Rust for beginners',
    description: '',
    maxMentees: 1,
    currentMentees: 0,
    seniorityRequired: ['junior'],
    location: 'online',
    interests: [],
    status: 'approved',
    mentorId: mentor.id,
    mentor: {
      id: mentor.id,
      username: mentor.username,
      full_name: mentor.full_name,
      profileImage: null,
    },
    mentorFeedback: null,
    rejectionReason: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    version: 1,
    ...overrides,
  }
}

export function applicationRow(
  topic: SyncTopic,
  mentee: SyncUser,
  overrides: Partial<SyncApplication> = {},
): SyncApplication {
  return {
    id: randomUUID(),
    topicId: topic.id,
    status: 'pending',
    rejectionReason: null,
    createdAt: '2025-01-02T00:00:00.000Z',
    updatedAt: '2025-01-02T00:00:00.000Z',
    mentee: {
      id: mentee.id,
      username: mentee.username,
      full_name: mentee.full_name,
      seniority: mentee.seniority,
    },
    topic: {
      id: topic.id,
      subject: topic.subject,
      status: topic.status,
      mentor: {
        id: topic.mentor.id,
        username: topic.mentor.username,
        full_name: topic.mentor.full_name,
      },
    },
    version: 1,
    ...overrides,
  }
}

/** A fresh database of its own and a mutation context acting as `me`. */
export function localContext(me: SyncUser): MutationContext & { queued: string[] } {
  const db: SyncDb = createSyncDb(`pairwise-test-${randomUUID()}`)
  const queued: string[] = []
  let clock = Date.parse('2025-06-01T12:00:00.000Z')
  return {
    db,
    me: { id: me.id, username: me.username, isAdmin: me.isAdmin },
    now: () => (clock += 1000),
    newId: () => randomUUID(),
    onQueued: (row) => queued.push(row.id),
    queued,
  }
}
