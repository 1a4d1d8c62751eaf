import {
  LOCATION_CARD_LABELS,
  type Location,
  MAX_MENTEES_MAX,
  SENIORITY_LABELS,
  SENIORITY_LEVELS,
  type Seniority,
} from './constants.ts'
import { MATCH_FACTORS, type MatchFactor, type MatchWeights } from './programme-settings.ts'
import type { Topic } from './topic.ts'
import type { User } from './user.ts'

/**
 * Matching (issue 17, decision 0037): one scoring function, run offline by
 * the PWA from IndexedDB and by GET /api/recommendations and GET
 * /api/topics/{id}/candidates on the server, so both give the same answer.
 *
 * A score is the weighted mean of at most five named factors, each in 0..1
 * (interests, seniority, location, capacity, responsiveness), so it is in
 * 0..1 and explainable by construction: the reasons are the factors that
 * counted, in words.
 */

// ---------------------------------------------------------------------------
// Interests: one key for every spelling of the same thing
// ---------------------------------------------------------------------------

/**
 * Spellings that mean the same interest, by their lower-case, single-spaced
 * form. Small on purpose: the pickers suggest what others typed, so the
 * vocabulary converges; this table catches the abbreviations people use
 * anyway.
 */
const SYNONYMS: Record<string, string> = {
  js: 'javascript',
  ecmascript: 'javascript',
  'vanilla js': 'javascript',
  ts: 'typescript',
  k8s: 'kubernetes',
  kube: 'kubernetes',
  ml: 'machine learning',
  ai: 'artificial intelligence',
  dl: 'deep learning',
  nlp: 'natural language processing',
  llm: 'large language model',
  genai: 'generative ai',
  'gen ai': 'generative ai',
  ux: 'user experience',
  'ux design': 'user experience',
  ui: 'user interface',
  'ui design': 'user interface',
  reactjs: 'react',
  'react.js': 'react',
  'react js': 'react',
  nodejs: 'node.js',
  node: 'node.js',
  'node js': 'node.js',
  vuejs: 'vue',
  'vue.js': 'vue',
  nextjs: 'next.js',
  golang: 'go',
  py: 'python',
  postgres: 'postgresql',
  psql: 'postgresql',
  aws: 'amazon web services',
  gcp: 'google cloud',
  'google cloud platform': 'google cloud',
  pm: 'product management',
  qa: 'quality assurance',
  'ci/cd': 'continuous delivery',
  cicd: 'continuous delivery',
  'ci cd': 'continuous delivery',
  sre: 'site reliability engineering',
  oop: 'object oriented programming',
  tdd: 'test driven development',
  a11y: 'accessibility',
  i18n: 'internationalisation',
  internationalization: 'internationalisation',
  optimization: 'optimisation',
}

/** Words whose final s is not a plural. */
const NOT_PLURAL = new Set([
  'kubernetes',
  'analytics',
  'devops',
  'ios',
  'macos',
  'redis',
  'sass',
  'css',
  'less',
  'express',
  'windows',
  'news',
  'business',
  'process',
  'access',
  'series',
  'status',
  'canvas',
  'physics',
  'economics',
  'mathematics',
  'statistics',
  'ethics',
  'graphics',
  'robotics',
  'linguistics',
  'logistics',
  'electronics',
  'jenkins',
  'nodes',
])

function singular(word: string): string {
  if (word.length <= 3 || NOT_PLURAL.has(word) || !word.endsWith('s') || word.endsWith('ss')) {
    return word
  }
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`
  return word.slice(0, -1)
}

const synonym = (key: string) => SYNONYMS[key] ?? key

const keyCache = new Map<string, string>()
const KEY_CACHE_MAX = 50_000

/**
 * The key an interest is compared by: case, spacing, hyphens and plurals
 * folded, and known abbreviations spelled out. `JS`, ` javascript ` and
 * `JavaScript` have one key; so have `React`, `react.js` and `ReactJS`, and
 * `Microservices` and `microservice`.
 */
export function normalizeInterest(value: string): string {
  const cached = keyCache.get(value)
  if (cached !== undefined) return cached
  let key = synonym(value.normalize('NFKC').toLowerCase().trim().replace(/\s+/g, ' '))
  key = synonym(key.replace(/[-_]+/g, ' ').replace(/\s+/g, ' ').trim())
  key = synonym(key.split(' ').map(singular).join(' '))
  if (keyCache.size >= KEY_CACHE_MAX) keyCache.clear()
  keyCache.set(value, key)
  return key
}

/** Whether two spellings name one interest. */
export function sameInterest(a: string, b: string): boolean {
  return normalizeInterest(a) === normalizeInterest(b)
}

function keysOf(interests: readonly string[]): Set<string> {
  const keys = new Set<string>()
  for (const interest of interests) {
    const key = normalizeInterest(interest)
    if (key !== '') keys.add(key)
  }
  return keys
}

/** An interest in use, with how many people and topics use it, in its most used spelling. */
export type InterestUse = { name: string; count: number }

/**
 * Counts interests by key over some lists (topics' or people's), naming
 * each by its most used spelling; most used first, then by name.
 */
export function countInterests(lists: Iterable<readonly string[]>): InterestUse[] {
  const byKey = new Map<string, { count: number; spellings: Map<string, number> }>()
  for (const list of lists) {
    for (const key of keysOf(list)) {
      const spelling = list.find((i) => normalizeInterest(i) === key)?.trim() ?? key
      const entry = byKey.get(key) ?? { count: 0, spellings: new Map<string, number>() }
      entry.count += 1
      entry.spellings.set(spelling, (entry.spellings.get(spelling) ?? 0) + 1)
      byKey.set(key, entry)
    }
  }
  const uses: InterestUse[] = []
  for (const entry of byKey.values()) {
    let name = ''
    let best = -1
    for (const [spelling, n] of entry.spellings) {
      if (n > best || (n === best && spelling < name)) {
        name = spelling
        best = n
      }
    }
    uses.push({ name, count: entry.count })
  }
  return uses.sort((a, b) => b.count - a.count || a.name.localeCompare(b.name))
}

/**
 * What to suggest while someone types an interest: known interests whose
 * key starts with (first) or contains what is typed, most used first,
 * leaving out those already chosen (by key). An empty input suggests the
 * most used ones.
 */
export function suggestInterests(
  typed: string,
  known: readonly InterestUse[],
  chosen: readonly string[],
  limit = 8,
): string[] {
  const taken = keysOf(chosen)
  const query = typed.trim() === '' ? '' : normalizeInterest(typed)
  const lower = typed.trim().toLowerCase()
  const starts: string[] = []
  const contains: string[] = []
  for (const use of known) {
    const key = normalizeInterest(use.name)
    if (taken.has(key)) continue
    const name = use.name.toLowerCase()
    if (query === '' || key.startsWith(query) || name.startsWith(lower)) starts.push(use.name)
    else if (key.includes(query) || name.includes(lower)) contains.push(use.name)
    if (starts.length >= limit) break
  }
  return [...starts, ...contains].slice(0, limit)
}

// ---------------------------------------------------------------------------
// Factors
// ---------------------------------------------------------------------------

/** What scoring reads of a person (the users table has it for everyone). */
export type MatchPerson = Pick<
  User,
  'id' | 'seniority' | 'interests' | 'preferredLocation' | 'lookingForMentor' | 'hasMentor'
>

/** What scoring reads of a topic. */
export type MatchTopic = Pick<
  Topic,
  | 'id'
  | 'interests'
  | 'seniorityRequired'
  | 'location'
  | 'maxMentees'
  | 'currentMentees'
  | 'status'
  | 'mentorId'
>

const ANSWER_DAY_BUCKETS = [1, 2, 3, 5, 7, 14, 30] as const

/**
 * How a mentor's usual answer time is shown and scored: the median hours
 * from application to decision, as whole days rounded up to 1, 2, 3, 5, 7,
 * 14 or 30 (longer is 30). The server keeps it on each user
 * (`answersWithinDays`, sql/0008_matching.sql writes the same rule).
 */
export function answerDaysBucket(medianHours: number | null): number | null {
  if (medianHours === null || !Number.isFinite(medianHours)) return null
  const days = Math.max(1, Math.ceil(medianHours / 24))
  return ANSWER_DAY_BUCKETS.find((b) => b >= days) ?? 30
}

function seniorityFactor(
  person: Pick<MatchPerson, 'seniority'>,
  topic: Pick<MatchTopic, 'seniorityRequired'>,
): number {
  if (person.seniority == null) return 0.5
  if (topic.seniorityRequired.includes(person.seniority)) return 1
  const at = SENIORITY_LEVELS.indexOf(person.seniority)
  const near = topic.seniorityRequired.some(
    (level) => Math.abs(SENIORITY_LEVELS.indexOf(level) - at) === 1,
  )
  return near ? 0.25 : 0
}

function locationFactor(preferred: Location | null | undefined, offered: Location): number {
  if (preferred == null) return offered === 'in-person' ? 0.6 : 1
  if (preferred === 'both' || offered === 'both' || preferred === offered) return 1
  return preferred === 'in-person' ? 0.3 : 0
}

function capacityFactor(topic: MatchTopic): number {
  const free = Math.max(0, topic.maxMentees - topic.currentMentees)
  return Math.min(1, free / MAX_MENTEES_MAX)
}

function responsivenessFactor(days: number | null): number {
  if (days === null) return 0.5
  if (days <= 1) return 1
  if (days <= 2) return 0.85
  if (days <= 3) return 0.7
  if (days <= 7) return 0.4
  return 0.15
}

/** A topic's interests as keys, with the topic's spelling of each. */
type TopicKeys = Map<string, string>

function topicKeys(topic: MatchTopic): TopicKeys {
  const keys: TopicKeys = new Map()
  for (const interest of topic.interests) {
    const key = normalizeInterest(interest)
    if (key !== '' && !keys.has(key)) keys.set(key, interest.trim())
  }
  return keys
}

/** The topic's spellings of the interests a person shares with it. */
function sharedInterests(personKeys: ReadonlySet<string>, keys: TopicKeys): string[] {
  const shared: string[] = []
  for (const [key, spelling] of keys) if (personKeys.has(key)) shared.push(spelling)
  return shared
}

function interestFactor(shared: number, keys: TopicKeys): number {
  if (keys.size === 0) return 0
  return Math.min(1, shared / Math.min(3, keys.size))
}

type Factors = Record<MatchFactor, number>

/** The weighted mean of the factors: 0..1. */
function weightedScore(factors: Factors, weights: MatchWeights): number {
  let sum = 0
  let total = 0
  for (const factor of MATCH_FACTORS) {
    sum += weights[factor] * factors[factor]
    total += weights[factor]
  }
  return total === 0 ? 0 : sum / total
}

/** Joins names as people write them: "A", "A and B", "A, B and C", "A, B and 2 more". */
export function listInWords(names: readonly string[], most = 3): string {
  if (names.length <= 1) return names[0] ?? ''
  if (names.length > most) {
    return `${names.slice(0, most - 1).join(', ')} and ${names.length - (most - 1)} more`
  }
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

/** The reasons on one line, as a card shows them: "Shares A and B · for mid-level · online". */
export function reasonLine(reasons: readonly string[]): string {
  return reasons
    .map((r, i) => (i === 0 ? r : `${r.charAt(0).toLowerCase()}${r.slice(1)}`))
    .join(' · ')
}

function answersInWords(days: number): string {
  return days <= 1 ? 'Usually answers within a day' : `Usually answers within ${days} days`
}

const seniorityInWords = (level: Seniority) => SENIORITY_LABELS[level].toLowerCase()

/** One person's fit to one topic: factors, score and reasons. */
type Fit = { score: number; factors: Factors; reasons: string[]; shared: string[] }

/**
 * How well `topic` fits `person`, as the person reads it: the reasons name
 * the shared interests, the seniority the topic is for, where it meets,
 * free places and how quickly the mentor answers, for the factors that
 * count (weight above 0) and fit.
 */
function fitOf(
  person: MatchPerson,
  personKeys: ReadonlySet<string>,
  topic: MatchTopic,
  keys: TopicKeys,
  mentorAnswerDays: number | null,
  weights: MatchWeights,
): Fit {
  const shared = sharedInterests(personKeys, keys)
  const factors: Factors = {
    interests: interestFactor(shared.length, keys),
    seniority: seniorityFactor(person, topic),
    location: locationFactor(person.preferredLocation, topic.location),
    capacity: capacityFactor(topic),
    responsiveness: responsivenessFactor(mentorAnswerDays),
  }
  const reasons: string[] = []
  if (weights.interests > 0 && shared.length > 0) reasons.push(`Shares ${listInWords(shared)}`)
  if (weights.seniority > 0 && person.seniority !== null && factors.seniority === 1) {
    reasons.push(`For ${seniorityInWords(person.seniority)}`)
  }
  if (weights.location > 0 && factors.location === 1) {
    reasons.push(LOCATION_CARD_LABELS[topic.location])
  }
  if (weights.capacity > 0) {
    const free = topic.maxMentees - topic.currentMentees
    if (free === 1) reasons.push('1 place left')
    else if (free > 1) reasons.push(`${free} places free`)
  }
  if (weights.responsiveness > 0 && mentorAnswerDays !== null && mentorAnswerDays <= 7) {
    reasons.push(answersInWords(mentorAnswerDays))
  }
  return { score: weightedScore(factors, weights), factors, reasons, shared }
}

// ---------------------------------------------------------------------------
// Who may see a topic first: capacity-aware first places
// ---------------------------------------------------------------------------

/** FNV-1a, 32 bits: a stable hash, the same on every device and the server. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/**
 * How many people a topic may be the first recommendation of, per free place.
 * Issue 17: no topic ranks first for more than 3× as many people as it has
 * free places.
 */
export const FIRST_PLACE_PER_FREE_PLACE = 3

/** Who gets which topic as their first recommendation, and the first places left over. */
export type FirstPlaces = {
  of: Map<string, string>
  left: Map<string, number>
}

const firstPlaceCache = new WeakMap<
  Iterable<MatchTopic>,
  WeakMap<readonly MatchPerson[], { weights: string; places: FirstPlaces }>
>()

/**
 * The first places of everyone, computed from what every device has (open
 * topics and every person's public profile), so the phone of each person
 * and the server agree without asking each other. People take turns: first
 * those with no accepted application yet, then those who said they are
 * looking for a mentor, then everyone else, in a stable random order within
 * each group; each takes the topic that fits them best among those that
 * still have a first place left (FIRST_PLACE_PER_FREE_PLACE per free place)
 * and share an interest with them. A popular topic with one free place is
 * thus the first recommendation of three people; the others get their next
 * best as first, and it still follows in their list.
 *
 * Cached per list of topics and people (the screens pass the same arrays
 * until the data changes).
 */
export function firstPlaces(
  topics: Iterable<MatchTopic>,
  people: readonly MatchPerson[],
  weights: MatchWeights,
): FirstPlaces {
  const key = JSON.stringify(weights)
  let byPeople = firstPlaceCache.get(topics)
  const cached = byPeople?.get(people)
  if (cached && cached.weights === key) return cached.places
  const places = computeFirstPlaces(topics, people, weights)
  if (!byPeople) {
    byPeople = new WeakMap()
    firstPlaceCache.set(topics, byPeople)
  }
  byPeople.set(people, { weights: key, places })
  return places
}

function computeFirstPlaces(
  topics: Iterable<MatchTopic>,
  people: readonly MatchPerson[],
  weights: MatchWeights,
): FirstPlaces {
  const days = new Map<string, number | null>()
  for (const person of people) {
    days.set(
      person.id,
      (person as Partial<Pick<User, 'answersWithinDays'>>).answersWithinDays ?? null,
    )
  }
  // Every open topic, with what its score needs in numbers: it is weighed
  // against every person who shares one of its interests.
  const open: MatchTopic[] = []
  for (const topic of topics) if (isOpenTopic(topic)) open.push(topic)
  const n = open.length
  const places = new Int32Array(n)
  const spread = new Float64Array(n)
  const capacity = new Float64Array(n)
  const answers = new Float64Array(n)
  const levels = new Int32Array(n)
  const where = new Int32Array(n)
  const byKey = new Map<string, number[]>()
  const mentorOf = new Map<string, number[]>()
  for (const [at, topic] of open.entries()) {
    const keys = topicKeys(topic)
    places[at] = FIRST_PLACE_PER_FREE_PLACE * (topic.maxMentees - topic.currentMentees)
    spread[at] = Math.min(3, keys.size)
    capacity[at] = weights.capacity * capacityFactor(topic)
    answers[at] = weights.responsiveness * responsivenessFactor(days.get(topic.mentorId) ?? null)
    levels[at] = levelMask(topic.seniorityRequired)
    where[at] = LOCATION_LIST.indexOf(topic.location)
    for (const k of keys.keys()) {
      const list = byKey.get(k)
      if (list) list.push(at)
      else byKey.set(k, [at])
    }
    const own = mentorOf.get(topic.mentorId)
    if (own) own.push(at)
    else mentorOf.set(topic.mentorId, [at])
  }
  const total = MATCH_FACTORS.reduce((sum, f) => sum + weights[f], 0)
  const turns = people
    .map((person) => ({ person, keys: keysOf(person.interests) }))
    .filter((p) => p.keys.size > 0)
    .map((p) => ({ ...p, order: turnOrder(p.person) }))
    .sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1] || a.order[2] - b.order[2])
  const shared = new Int32Array(n)
  const touched = new Int32Array(n)
  const of = new Map<string, string>()
  const bySeniority = new Float64Array(8)
  const byLocation = new Float64Array(LOCATION_LIST.length)
  for (const { person, keys } of turns) {
    // What seniority and location add, for every kind of topic.
    for (let mask = 1; mask < 8; mask++) {
      bySeniority[mask] =
        weights.seniority * seniorityFactor(person, MASK_TOPICS[mask] as MaskTopic)
    }
    for (const [i, location] of LOCATION_LIST.entries()) {
      byLocation[i] = weights.location * locationFactor(person.preferredLocation, location)
    }
    let count = 0
    for (const k of keys) {
      const list = byKey.get(k)
      if (!list) continue
      for (const at of list) {
        if (shared[at] === 0) touched[count++] = at
        shared[at] = (shared[at] as number) + 1
      }
    }
    // Their own topics are not for them.
    for (const at of mentorOf.get(person.id) ?? []) shared[at] = 0
    let best = -1
    let bestScore = -1
    let bestTie: number | undefined
    for (let i = 0; i < count; i++) {
      const at = touched[i] as number
      const together = shared[at] as number
      shared[at] = 0
      if (together === 0 || (places[at] as number) <= 0) continue
      const sum =
        weights.interests * Math.min(1, together / (spread[at] as number)) +
        (bySeniority[levels[at] as number] as number) +
        (byLocation[where[at] as number] as number) +
        (capacity[at] as number) +
        (answers[at] as number)
      const score = total === 0 ? 0 : sum / total
      if (score < bestScore) continue
      if (score === bestScore && best >= 0) {
        // Equal fits: a stable hash of person and topic, so ties spread over people.
        bestTie ??= hash(`${person.id}:${open[best]?.id}`)
        const tie = hash(`${person.id}:${open[at]?.id}`)
        if (tie >= bestTie) continue
        bestTie = tie
      } else {
        bestTie = undefined
      }
      best = at
      bestScore = score
    }
    const chosen = open[best]
    if (chosen) {
      of.set(person.id, chosen.id)
      places[best] = (places[best] as number) - 1
    }
  }
  const left = new Map<string, number>()
  for (const [at, topic] of open.entries()) left.set(topic.id, places[at] ?? 0)
  return { of, left }
}

const LOCATION_LIST: readonly Location[] = ['online', 'in-person', 'both']

function levelMask(levels: readonly Seniority[]): number {
  let mask = 0
  for (const level of levels) mask |= 1 << SENIORITY_LEVELS.indexOf(level)
  return mask
}

type MaskTopic = Pick<MatchTopic, 'seniorityRequired'>
/** A topic for the seniority levels of each mask, for seniorityFactor. */
const MASK_TOPICS: MaskTopic[] = Array.from({ length: 8 }, (_, mask) => ({
  seniorityRequired: SENIORITY_LEVELS.filter((_, i) => mask & (1 << i)),
}))

function turnOrder(person: MatchPerson): [number, number, number] {
  return [person.hasMentor ? 1 : 0, person.lookingForMentor ? 0 : 1, hash(person.id)]
}

// ---------------------------------------------------------------------------
// Recommendations for a person
// ---------------------------------------------------------------------------

export const RECOMMENDATIONS_LIMIT_DEFAULT = 10
export const RECOMMENDATIONS_LIMIT_MAX = 50

export type Recommendation<T extends MatchTopic = MatchTopic> = {
  topic: T
  /** 0..1, the weighted mean of the factors. */
  score: number
  /** The factors that counted, in words, in factor order. */
  reasons: string[]
  factors: Factors
}

export type RecommendInput<T extends MatchTopic> = {
  me: MatchPerson
  topics: Iterable<T>
  /** Everyone (the users table): mentors' answer times, and who else a topic could be first for. */
  people: readonly MatchPerson[]
  /** Topics the person applied to. */
  applied: ReadonlySet<string>
  /** Topics the person marked "Not interested". */
  dismissed: ReadonlySet<string>
  weights: MatchWeights
  limit?: number
}

/** Open: approved and with a free place (the topics one can apply to). */
export function isOpenTopic(topic: Pick<MatchTopic, 'status' | 'maxMentees' | 'currentMentees'>) {
  return topic.status === 'approved' && topic.currentMentees < topic.maxMentees
}

/** Every topic that fits the person (open, shares an interest, not theirs, applied or dismissed), best first. */
function fitting<T extends MatchTopic>(
  input: RecommendInput<T>,
): (Recommendation<T> & { tie: number })[] {
  const { me, weights } = input
  const myKeys = keysOf(me.interests)
  if (myKeys.size === 0) return []
  const answerDays = new Map<string, number | null>()
  for (const person of input.people) {
    const days = (person as Partial<Pick<User, 'answersWithinDays'>>).answersWithinDays
    answerDays.set(person.id, days ?? null)
  }
  const found: (Recommendation<T> & { tie: number })[] = []
  for (const topic of input.topics) {
    if (!isOpenTopic(topic) || topic.mentorId === me.id) continue
    if (input.applied.has(topic.id) || input.dismissed.has(topic.id)) continue
    const keys = topicKeys(topic)
    let shares = false
    for (const key of keys.keys()) {
      if (myKeys.has(key)) {
        shares = true
        break
      }
    }
    if (!shares) continue
    const fit = fitOf(me, myKeys, topic, keys, answerDays.get(topic.mentorId) ?? null, weights)
    found.push({
      topic,
      score: fit.score,
      reasons: fit.reasons,
      factors: fit.factors,
      tie: hash(`${me.id}:${topic.id}`),
    })
  }
  found.sort((a, b) => b.score - a.score || a.tie - b.tie)
  return found
}

/**
 * "Recommended for you": open topics that share at least one interest with
 * the person, not their own, not applied to, not dismissed, best fit first.
 * The first place is the one firstPlaces() gave the person, so a popular
 * topic with one free place is not everyone's first recommendation. Ties
 * are broken by a stable hash of person and topic, so equal topics are
 * spread over people. Empty when the person's profile has no interests (ask
 * for some instead), and when every topic that fits them has given all its
 * first places to others (the screens say so and point to the list).
 */
export function recommend<T extends MatchTopic>(input: RecommendInput<T>): Recommendation<T>[] {
  const found = fitting(input)
  if (found.length === 0) return []
  const places = firstPlaces(input.topics, input.people, input.weights)
  const mine = places.of.get(input.me.id)
  // The first place is the one this person was given; when they applied to
  // it or dismissed it meanwhile, the best topic with a first place left over.
  let first = mine === undefined ? -1 : found.findIndex((r) => r.topic.id === mine)
  if (first < 0) first = found.findIndex((r) => (places.left.get(r.topic.id) ?? 0) > 0)
  if (first < 0) return []
  if (first > 0) found.unshift(...found.splice(first, 1))
  return found.slice(0, limitOf(input)).map(strip)
}

/**
 * The topics that fit a person who got no first place (recommend() answers
 * nothing for them): every one is wanted by more people than it has places.
 * The screens show them apart, as "in demand", not as recommendations.
 */
export function inDemand<T extends MatchTopic>(input: RecommendInput<T>): Recommendation<T>[] {
  return fitting(input).slice(0, limitOf(input)).map(strip)
}

const limitOf = (input: { limit?: number }) =>
  Math.max(1, Math.min(input.limit ?? RECOMMENDATIONS_LIMIT_DEFAULT, 1_000))

function strip<T extends MatchTopic>({ topic, score, reasons, factors }: Recommendation<T>) {
  return { topic, score, reasons, factors }
}

// ---------------------------------------------------------------------------
// People who might fit a mentor's topic
// ---------------------------------------------------------------------------

export const CANDIDATES_LIMIT_DEFAULT = 20

export type Candidate<P extends MatchPerson = MatchPerson> = {
  person: P
  score: number
  reasons: string[]
}

export type CandidatesInput<P extends MatchPerson> = {
  topic: MatchTopic
  people: readonly P[]
  /** People who applied to the topic: they are in the mentor's applications already. */
  applied: ReadonlySet<string>
  weights: MatchWeights
  limit?: number
}

/**
 * "People who might fit" a topic: people who said they are looking for a
 * mentor, not its mentor, who have not applied, and who share an interest
 * with it or are of a seniority it is for; best fit first. The score is the
 * one the person would see for the topic; the reasons are worded for the
 * mentor.
 */
export function candidatesFor<P extends MatchPerson>(input: CandidatesInput<P>): Candidate<P>[] {
  const { topic, weights } = input
  const keys = topicKeys(topic)
  const mentor = input.people.find((p) => p.id === topic.mentorId)
  const days = (mentor as Partial<Pick<User, 'answersWithinDays'>> | undefined)?.answersWithinDays
  const found: (Candidate<P> & { tie: number })[] = []
  for (const person of input.people) {
    if (!person.lookingForMentor || person.id === topic.mentorId) continue
    if (input.applied.has(person.id)) continue
    const personKeys = keysOf(person.interests)
    const fit = fitOf(person, personKeys, topic, keys, days ?? null, weights)
    if (fit.shared.length === 0 && fit.factors.seniority < 1) continue
    const reasons: string[] = []
    if (fit.shared.length > 0) reasons.push(`Shares ${listInWords(fit.shared)}`)
    if (person.seniority != null && fit.factors.seniority === 1) {
      const level = seniorityInWords(person.seniority)
      reasons.push(`${level.charAt(0).toUpperCase()}${level.slice(1)}`)
    }
    if (person.preferredLocation != null && fit.factors.location === 1) {
      reasons.push(
        person.preferredLocation === 'both'
          ? 'Meets online or in person'
          : `Prefers ${LOCATION_CARD_LABELS[person.preferredLocation].toLowerCase()}`,
      )
    }
    if (!person.hasMentor) reasons.push('No mentor yet')
    found.push({ person, score: fit.score, reasons, tie: hash(`${person.id}:${topic.id}`) })
  }
  found.sort(
    (a, b) =>
      Number(a.person.hasMentor) - Number(b.person.hasMentor) || b.score - a.score || a.tie - b.tie,
  )
  return found
    .slice(0, Math.max(1, input.limit ?? CANDIDATES_LIMIT_DEFAULT))
    .map(({ person, score, reasons }) => ({ person, score, reasons }))
}
