import {
  DAY,
  dice,
  generateUsers,
  LOCATIONS,
  REASONS,
  randomSource,
  type ScaleApplication,
  type ScaleData,
  type ScaleFeedback,
  type ScaleTopic,
  type ScaleUser,
  SENIORITIES,
  TOPIC_STARTED_REJECTION_REASON,
} from './scale-data.ts'
import { INTERESTS } from './seed-data.ts'

export type ScaleOptions = {
  /** People; topics are twice as many and applications four times. `company` is 5,000. */
  users: number
  /** Years of history, ending now. */
  years?: number
  /** The random seed: the same seed and size give the same history. */
  seed?: number
  now?: number
}

/**
 * A programme's history: topics proposed over the years (most of the old ones
 * concluded, recent ones still in review, open or running), applications to
 * the topics while they were open, decisions, closures when a topic started,
 * and feedback with star ratings on concluded topics. Mentors lean senior and
 * offer interests in another order of popularity than mentees ask for them, so
 * demand and supply differ as they do in real programmes.
 */
export function generateHistory(options: ScaleOptions): ScaleData {
  const random = randomSource(options.seed ?? 19)
  const d = dice(random)
  const now = options.now ?? Date.now()
  const years = options.years ?? 3
  const users = generateUsers(options.users, now, years, random)
  const mentors = users.filter((u, i) => i % 3 === 0 || u.seniority === 'senior')
  const topics: ScaleTopic[] = []
  for (let i = 0; i < options.users * 2; i++) topics.push(topicAt(d, random, mentors, now, years))
  const applications = applicationsFor(d, random, topics, users, options.users * 4, now)
  const feedback = feedbackFor(random, topics, applications, now)
  // Nobody acts before they joined.
  const first = new Map<string, number>()
  const seen = (id: string, at: Date) =>
    first.set(id, Math.min(first.get(id) ?? at.getTime(), at.getTime()))
  for (const t of topics) seen(t.mentorId, t.createdAt)
  for (const a of applications) seen(a.menteeId, a.createdAt)
  for (const u of users) {
    const at = first.get(u.id)
    if (at !== undefined && at < u.createdAt.getTime()) u.createdAt = new Date(at - DAY)
  }
  matchingProfiles(users, topics, randomSource((options.seed ?? 19) + 17))
  return { users, topics, applications, feedback }
}

/**
 * Matching fields (issue 17), from a random source of their own so the rest
 * of the history stays what it was: about 40 % looking for a mentor, mostly
 * people who offer no topic; a preferred location spread over none, online,
 * in person and both.
 */
function matchingProfiles(users: ScaleUser[], topics: ScaleTopic[], random: () => number): void {
  const mentors = new Set(topics.map((t) => t.mentorId))
  const mentees = users.filter((u) => !mentors.has(u.id)).length
  // Mentors look one time in ten; the others make up the rest of the 40 %.
  const menteeShare = Math.min(
    0.95,
    (0.4 * users.length - 0.1 * mentors.size) / Math.max(1, mentees),
  )
  for (const u of users) {
    u.lookingForMentor = random() < (mentors.has(u.id) ? 0.1 : menteeShare)
    const r = random()
    u.preferredLocation = r < 0.25 ? null : r < 0.55 ? 'online' : r < 0.75 ? 'in-person' : 'both'
  }
}

function topicAt(
  d: ReturnType<typeof dice>,
  random: () => number,
  mentors: ScaleUser[],
  now: number,
  years: number,
): ScaleTopic {
  // More topics lately: the programme grew.
  const createdAt = now - (1 - Math.sqrt(random())) * years * 365 * DAY
  const mentor = d.pick(mentors)
  const interests = d.some(INTERESTS, 1 + Math.floor(random() * 3), () => d.zipf(INTERESTS, 6))
  const at = (t: number) => (t <= now ? new Date(t) : null)
  const reviewedAt = at(createdAt + d.days(2) * DAY)
  const rejected = reviewedAt !== null && random() < 0.08
  const neverStarts = random() < 0.04
  const startedAt =
    reviewedAt && !rejected && !neverStarts ? at(reviewedAt.getTime() + d.days(18) * DAY) : null
  const concludedAt = startedAt ? at(startedAt.getTime() + (90 + random() * 90) * DAY) : null
  const status = concludedAt
    ? 'concluded'
    : startedAt
      ? 'started'
      : rejected
        ? 'rejected'
        : reviewedAt
          ? 'approved'
          : 'proposed'
  const subjectInterest = interests[0] ?? 'Career Growth'
  return {
    id: d.uuid(),
    subject: `${d.pick(['Getting started with', 'Going deeper in', 'Practical', 'Leading with'])} ${subjectInterest}`,
    mentorId: mentor.id,
    maxMentees: random() < 0.6 ? 1 : 2,
    seniorityRequired: d.some(SENIORITIES, 1 + Math.floor(random() * 2), () => d.pick(SENIORITIES)),
    location: d.pick(LOCATIONS),
    interests,
    status,
    rejectionReason:
      status === 'rejected'
        ? 'Please narrow the topic to something a mentee can finish in six months.'
        : null,
    mentorFeedback:
      status === 'concluded' ? 'We met every two weeks and covered the plan we set out.' : null,
    createdAt: new Date(createdAt),
    reviewedAt,
    startedAt,
    concludedAt,
    currentMentees: 0,
  }
}

function applicationsFor(
  d: ReturnType<typeof dice>,
  random: () => number,
  topics: ScaleTopic[],
  users: ScaleUser[],
  count: number,
  now: number,
): ScaleApplication[] {
  const open = topics.filter((t) => t.reviewedAt && t.status !== 'rejected')
  const pairs = new Set<string>()
  const byTopic = new Map<ScaleTopic, ScaleApplication[]>()
  for (let tries = 0; pairs.size < count && open.length > 0 && tries < count * 5; tries++) {
    const topic = d.pick(open)
    const mentee = d.pick(users)
    const key = `${topic.id}/${mentee.id}`
    if (mentee.id === topic.mentorId || pairs.has(key)) continue
    pairs.add(key)
    const opened = topic.reviewedAt?.getTime() ?? now
    const closes = topic.startedAt?.getTime() ?? Math.min(now, opened + 60 * DAY)
    const createdAt = new Date(opened + random() * Math.max(closes - opened, DAY / 24))
    const list = byTopic.get(topic) ?? []
    list.push({
      id: d.uuid(),
      topicId: topic.id,
      menteeId: mentee.id,
      status: 'pending',
      rejectionReason: null,
      createdAt,
      decidedAt: null,
    })
    byTopic.set(topic, list)
  }
  for (const [topic, list] of byTopic) {
    list.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    const startsAt = topic.startedAt?.getTime() ?? Number.POSITIVE_INFINITY
    for (const a of list) {
      const decided = a.createdAt.getTime() + d.days(3) * DAY
      if (decided < Math.min(startsAt, now)) {
        const accept = topic.currentMentees < topic.maxMentees && random() < 0.65
        a.status = accept ? 'accepted' : 'rejected'
        a.rejectionReason = accept ? null : d.pick(REASONS)
        a.decidedAt = new Date(decided)
        if (accept) topic.currentMentees += 1
      } else if (startsAt <= now) {
        a.status = 'rejected'
        a.rejectionReason = TOPIC_STARTED_REJECTION_REASON
        a.decidedAt = new Date(startsAt)
      }
    }
  }
  return [...byTopic.values()].flat()
}

function feedbackFor(
  random: () => number,
  topics: ScaleTopic[],
  applications: ScaleApplication[],
  now: number,
): ScaleFeedback[] {
  const accepted = new Map<string, string[]>()
  for (const a of applications) {
    if (a.status === 'accepted')
      accepted.set(a.topicId, [...(accepted.get(a.topicId) ?? []), a.menteeId])
  }
  const rating = () => {
    const r = random()
    return r < 0.03 ? 1 : r < 0.08 ? 2 : r < 0.2 ? 3 : r < 0.55 ? 4 : 5
  }
  const out: ScaleFeedback[] = []
  for (const t of topics) {
    if (!t.concludedAt) continue
    const at = () =>
      new Date(Math.min(now, (t.concludedAt?.getTime() ?? now) + random() * 14 * DAY))
    if (random() < 0.7)
      out.push({
        topicId: t.id,
        userId: t.mentorId,
        rating: rating(),
        isMentor: true,
        createdAt: at(),
      })
    for (const mentee of accepted.get(t.id) ?? []) {
      if (random() < 0.6)
        out.push({
          topicId: t.id,
          userId: mentee,
          rating: rating(),
          isMentor: false,
          createdAt: at(),
        })
    }
  }
  return out
}
