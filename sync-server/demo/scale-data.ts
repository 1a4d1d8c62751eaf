import { TOPIC_STARTED_REJECTION_REASON } from '../../shared/constants.ts'
import { INTERESTS } from './seed-data.ts'

// Generates a programme's history at scale, in memory and deterministically (the
// same size and seed give the same rows), for benchmarks, tests and load trials.
// seed-scale.ts writes it to the database.

const DAY = 86_400_000
const SENIORITIES = ['junior', 'mid', 'senior'] as const
const LOCATIONS = ['online', 'in-person', 'both'] as const
const FIRST = ['ana', 'ben', 'chen', 'dara', 'eli', 'fatma', 'gus', 'hana', 'ivan', 'jo', 'kofi']
const LAST = ['berg', 'costa', 'diaz', 'egan', 'fox', 'gill', 'hart', 'ito', 'khan', 'lund', 'moss']
const REASONS = [
  'The places went to applicants whose goals fit the topic more closely.',
  'This topic needs more experience with the basics first.',
  'Schedules did not line up for the meetings this topic needs.',
]

export type ScaleUser = {
  id: string
  username: string
  fullName: string
  seniority: (typeof SENIORITIES)[number] | null
  interests: string[]
  isAdmin: boolean
  createdAt: Date
  /** Matching (issue 17): set by scale-history.ts once it knows who mentors. */
  lookingForMentor: boolean
  preferredLocation: (typeof LOCATIONS)[number] | null
}
export type ScaleTopic = {
  id: string
  subject: string
  mentorId: string
  maxMentees: 1 | 2
  seniorityRequired: string[]
  location: (typeof LOCATIONS)[number]
  interests: string[]
  status: 'proposed' | 'approved' | 'rejected' | 'started' | 'concluded'
  rejectionReason: string | null
  mentorFeedback: string | null
  createdAt: Date
  reviewedAt: Date | null
  startedAt: Date | null
  concludedAt: Date | null
  currentMentees: number
}
export type ScaleApplication = {
  id: string
  topicId: string
  menteeId: string
  status: 'pending' | 'accepted' | 'rejected'
  rejectionReason: string | null
  createdAt: Date
  decidedAt: Date | null
}
export type ScaleFeedback = {
  topicId: string
  userId: string
  rating: number
  isMentor: boolean
  createdAt: Date
}
export type ScaleData = {
  users: ScaleUser[]
  topics: ScaleTopic[]
  applications: ScaleApplication[]
  feedback: ScaleFeedback[]
}

/** mulberry32: a small, fast, seedable generator; Math.random cannot be replayed. */
export function randomSource(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Helpers over one random source. */
export function dice(random: () => number) {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T
  /** Index 0 most likely, falling off like 1/(i+1): a few interests are popular, most are not. */
  const zipf = <T>(list: readonly T[], offset = 0): T => {
    const weights = list.map((_, i) => 1 / (((i + offset) % list.length) + 1))
    let r = random() * weights.reduce((a, b) => a + b, 0)
    for (const [i, w] of weights.entries()) {
      r -= w
      if (r <= 0) return list[i] as T
    }
    return list[list.length - 1] as T
  }
  /** A skewed positive duration in days: most near `median`, a long tail. */
  const days = (median: number) => median * Math.exp((random() + random() + random() - 1.5) * 1.6)
  const uuid = () => {
    const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16))
    hex[12] = '4'
    hex[16] = ((Number.parseInt(hex[16] ?? '0', 16) & 3) | 8).toString(16)
    const h = hex.join('')
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
  }
  const some = <T>(list: readonly T[], count: number, choose: () => T): T[] => {
    const out = new Set<T>()
    for (let i = 0; out.size < Math.min(count, list.length) && i < count * 10; i++)
      out.add(choose())
    return [...out]
  }
  return { pick, zipf, days, uuid, some }
}

/**
 * The people: usernames, seniority (juniors most common), 2-5 interests each
 * with a few popular ones, joined over `years`. The first user is the
 * administrator `admin`.
 */
export function generateUsers(count: number, now: number, years: number, random: () => number) {
  const d = dice(random)
  const users: ScaleUser[] = []
  for (let i = 0; i < count; i++) {
    const first = d.pick(FIRST)
    const last = d.pick(LAST)
    const r = random()
    const seniority = r < 0.38 ? 'junior' : r < 0.75 ? 'mid' : r < 0.95 ? 'senior' : null
    users.push({
      id: d.uuid(),
      username: i === 0 ? 'admin' : `${first}.${last}${i}`,
      fullName: i === 0 ? 'Alex Morgan' : `${cap(first)} ${cap(last)}`,
      seniority: i === 0 ? 'senior' : seniority,
      interests: d.some(INTERESTS, 2 + Math.floor(random() * 4), () => d.zipf(INTERESTS)),
      isAdmin: i === 0 || i % 997 === 0,
      createdAt: new Date(now - random() * years * 365 * DAY),
      lookingForMentor: false,
      preferredLocation: null,
    })
  }
  return users
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}

export { DAY, LOCATIONS, REASONS, SENIORITIES, TOPIC_STARTED_REJECTION_REASON }
