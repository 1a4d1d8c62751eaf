import { firstPlaces, type MatchPerson, type MatchTopic, recommend } from '../shared/matching.ts'
import { DEFAULT_MATCH_WEIGHTS } from '../shared/programme-settings.ts'
import { randomSource } from '../sync-server/demo/scale-data.ts'
import { INTERESTS } from '../sync-server/demo/seed-data.ts'

// `npm run bench:matching`: the scoring of issue 17 in Node at company scale
// (5,000 people, 10,000 topics of which about 15 % open, the demo's 26
// interests spread unevenly), beside the same at 100 topics. bench:client
// times it in the browser; this one needs no server.

const SIZES = [
  { people: 50, topics: 100 },
  { people: 5_000, topics: 10_000 },
]
const ROUNDS = 3
const SAMPLE = 50

const random = randomSource(7)
const interest = () =>
  INTERESTS[Math.min(INTERESTS.length - 1, Math.floor(INTERESTS.length * random() ** 2))] as string
const LEVELS = ['junior', 'mid', 'senior'] as const

function programme(size: { people: number; topics: number }) {
  const people: (MatchPerson & { answersWithinDays: number | null })[] = Array.from(
    { length: size.people },
    (_, i) => ({
      id: `u${i}`,
      seniority: LEVELS[i % 3] ?? null,
      interests: Array.from({ length: 1 + Math.floor(random() * 5) }, interest),
      preferredLocation: null,
      lookingForMentor: random() < 0.4,
      hasMentor: random() < 0.3,
      answersWithinDays: random() < 0.5 ? 2 : null,
    }),
  )
  const topics: MatchTopic[] = Array.from({ length: size.topics }, (_, i) => ({
    id: `t${i}`,
    interests: Array.from({ length: 1 + Math.floor(random() * 3) }, interest),
    seniorityRequired: [LEVELS[i % 3] ?? 'mid'],
    location: 'online',
    maxMentees: 2,
    currentMentees: random() < 0.5 ? 1 : 0,
    status: random() < 0.15 ? 'approved' : 'concluded',
    mentorId: `u${Math.floor(random() * Math.max(1, size.people / 6))}`,
  }))
  return { people, topics }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN

for (const size of SIZES) {
  const { people, topics } = programme(size)
  for (let round = 1; round <= ROUNDS; round++) {
    // A new array each round: as after a sync, the first places are computed again.
    const list = [...topics]
    const t0 = performance.now()
    const places = firstPlaces(list, people, DEFAULT_MATCH_WEIGHTS)
    const first = performance.now() - t0
    const times: number[] = []
    for (let i = 0; i < SAMPLE; i++) {
      const me = people[(i * 7) % people.length] as MatchPerson
      const start = performance.now()
      recommend({
        me,
        topics: list,
        people,
        applied: new Set(),
        dismissed: new Set(),
        weights: DEFAULT_MATCH_WEIGHTS,
        limit: 10,
      })
      times.push(performance.now() - start)
    }
    times.sort((a, b) => a - b)
    console.log(
      `${size.people} people, ${size.topics} topics, round ${round}: first places ${first.toFixed(0)} ms (${places.of.size} placed); one person's recommendations p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms (target ≤ 50 ms)`,
    )
  }
}
