import { describe, expect, it } from 'vitest'
import {
  answerDaysBucket,
  candidatesFor,
  countInterests,
  inDemand,
  listInWords,
  type MatchPerson,
  type MatchTopic,
  normalizeInterest,
  reasonLine,
  recommend,
  sameInterest,
  suggestInterests,
} from './matching.ts'
import { recommendationsQuerySchema } from './matching-api.ts'
import {
  DEFAULT_MATCH_WEIGHTS,
  type MatchWeights,
  matchWeightsSchema,
} from './programme-settings.ts'

const person = (over: Partial<MatchPerson & { answersWithinDays: number | null }> = {}) => ({
  id: 'me',
  seniority: 'mid' as const,
  interests: ['TypeScript', 'React'],
  preferredLocation: null,
  lookingForMentor: true,
  hasMentor: false,
  answersWithinDays: null as number | null,
  ...over,
})

let topicCount = 0
const topic = (over: Partial<MatchTopic> = {}): MatchTopic => ({
  id: `t${++topicCount}`,
  interests: ['TypeScript'],
  seniorityRequired: ['mid'],
  location: 'online',
  maxMentees: 2,
  currentMentees: 0,
  status: 'approved',
  mentorId: 'mentor',
  ...over,
})

const mentor = (answersWithinDays: number | null = null) =>
  person({ id: 'mentor', interests: [], lookingForMentor: false, answersWithinDays })

function recommendFor(
  me: ReturnType<typeof person>,
  topics: MatchTopic[],
  extra: Partial<{
    people: ReturnType<typeof person>[]
    applied: string[]
    dismissed: string[]
    weights: MatchWeights
  }> = {},
) {
  return recommend({
    me,
    topics,
    people: extra.people ?? [me, mentor()],
    applied: new Set(extra.applied ?? []),
    dismissed: new Set(extra.dismissed ?? []),
    weights: extra.weights ?? DEFAULT_MATCH_WEIGHTS,
    limit: 50,
  })
}

describe('normalizeInterest: one key for every spelling', () => {
  it.each([
    ['case', 'TypeScript', 'typescript'],
    ['spacing', '  Machine   Learning ', 'machine learning'],
    ['hyphens', 'machine-learning', 'machine learning'],
    ['plurals', 'Microservices', 'Microservice'],
    ['plural -ies', 'Technologies', 'technology'],
    ['JS', 'JS', 'JavaScript'],
    ['k8s', 'k8s', 'Kubernetes'],
    ['ML', 'ML', 'Machine learning'],
    ['ReactJS', 'ReactJS', 'React'],
    ['react.js', 'react.js', 'React'],
    ['Node', 'NodeJS', 'node.js'],
    ['plural abbreviation', 'LLMs', 'Large language models'],
    ['ci/cd', 'CI/CD', 'continuous delivery'],
    ['AWS', 'AWS', 'Amazon Web Services'],
  ])('%s: %s = %s', (_label, a, b) => {
    expect(normalizeInterest(a)).toBe(normalizeInterest(b))
    expect(sameInterest(a, b)).toBe(true)
  })

  it.each([
    ['Kubernetes keeps its s', 'Kubernetes', 'kubernetes'],
    ['analytics is not a plural', 'Analytics', 'analytics'],
  ])('%s', (_label, value, key) => {
    expect(normalizeInterest(value)).toBe(key)
  })

  it('keeps different interests apart', () => {
    expect(sameInterest('Java', 'JavaScript')).toBe(false)
    expect(sameInterest('Go', 'Google Cloud')).toBe(false)
    expect(sameInterest('UX', 'UI')).toBe(false)
  })
})

describe('answerDaysBucket', () => {
  it.each([
    [null, null],
    [0, 1],
    [1, 1],
    [24, 1],
    [25, 2],
    [48, 2],
    [49, 3],
    [73, 5],
    [24 * 5, 5],
    [24 * 6, 7],
    [24 * 8, 14],
    [24 * 15, 30],
    [24 * 400, 30],
  ])('%s hours → %s days', (hours, days) => {
    expect(answerDaysBucket(hours)).toBe(days)
  })
})

describe('words', () => {
  it('lists names as people write them', () => {
    expect(listInWords(['A'])).toBe('A')
    expect(listInWords(['A', 'B'])).toBe('A and B')
    expect(listInWords(['A', 'B', 'C'])).toBe('A, B and C')
    expect(listInWords(['A', 'B', 'C', 'D'])).toBe('A, B and 2 more')
  })

  it('puts the reasons on one line', () => {
    expect(reasonLine(['Shares TypeScript and React', 'For mid-level', 'Online'])).toBe(
      'Shares TypeScript and React · for mid-level · online',
    )
  })
})

describe('recommend: reasons for every factor', () => {
  it('gives the example line of the issue', () => {
    const me = person()
    const t = topic({ interests: ['TypeScript', 'React'], maxMentees: 2, currentMentees: 1 })
    const [r] = recommendFor(me, [t], { people: [me, mentor(2)] })
    expect(reasonLine(r?.reasons ?? [])).toBe(
      'Shares TypeScript and React · for mid-level · online · 1 place left · usually answers within 2 days',
    )
  })

  it('names shared interests in the topic’s spelling, matched through synonyms', () => {
    const me = person({ interests: ['JS', 'k8s'] })
    const [r] = recommendFor(me, [topic({ interests: ['JavaScript', 'Kubernetes', 'Go'] })])
    expect(r?.reasons[0]).toBe('Shares JavaScript and Kubernetes')
  })

  it('gives no seniority reason when the topic is for another level', () => {
    const me = person({ seniority: 'junior' })
    const [r] = recommendFor(me, [topic({ seniorityRequired: ['senior'] })])
    expect(r?.reasons.join()).not.toContain('For ')
    expect(r?.factors.seniority).toBe(0)
  })

  it('says where it meets only when it suits the person', () => {
    const online = person({ preferredLocation: 'online' })
    const inPerson = topic({ location: 'in-person' })
    expect(recommendFor(online, [inPerson])[0]?.reasons).not.toContain('In Person')
    const both = person({ preferredLocation: 'both' })
    expect(recommendFor(both, [topic({ location: 'in-person' })])[0]?.reasons).toContain(
      'In Person',
    )
  })

  it('counts free places and answer times', () => {
    const me = person()
    const [two] = recommendFor(me, [topic({ maxMentees: 2, currentMentees: 0 })])
    expect(two?.reasons).toContain('2 places free')
    const [fast] = recommendFor(me, [topic()], { people: [me, mentor(1)] })
    expect(fast?.reasons).toContain('Usually answers within a day')
    const [slow] = recommendFor(me, [topic()], { people: [me, mentor(14)] })
    expect(slow?.reasons.join()).not.toContain('Usually answers')
    expect(fast?.score).toBeGreaterThan(slow?.score ?? 1)
  })

  it('leaves out the reasons of factors weighted 0', () => {
    const me = person()
    const weights = { ...DEFAULT_MATCH_WEIGHTS, seniority: 0, location: 0, capacity: 0 }
    const [r] = recommendFor(me, [topic()], { weights, people: [me, mentor(1)] })
    expect(r?.reasons).toEqual(['Shares TypeScript', 'Usually answers within a day'])
  })

  it('scores in 0..1, a perfect fit 1', () => {
    const me = person({ preferredLocation: 'online' })
    const t = topic({ interests: ['TypeScript', 'React'], maxMentees: 2 })
    const [r] = recommendFor(me, [t], { people: [me, mentor(1)] })
    expect(r?.score).toBeCloseTo(1, 6)
  })
})

describe('recommend: which topics', () => {
  it('only open topics that share an interest, not own, applied or dismissed', () => {
    const me = person()
    const good = topic()
    const list = [
      good,
      topic({ status: 'proposed' }),
      topic({ status: 'started' }),
      topic({ maxMentees: 1, currentMentees: 1 }),
      topic({ interests: ['Cooking'] }),
      topic({ mentorId: 'me' }),
      topic({ id: 'applied' }),
      topic({ id: 'dismissed' }),
    ]
    const ids = recommendFor(me, list, { applied: ['applied'], dismissed: ['dismissed'] }).map(
      (r) => r.topic.id,
    )
    expect(ids).toEqual([good.id])
  })

  it('asks for interests rather than guessing: nothing without them', () => {
    expect(recommendFor(person({ interests: [] }), [topic()])).toEqual([])
  })

  it('ranks the better fit first', () => {
    const me = person()
    const one = topic({ interests: ['TypeScript', 'Rust', 'Go'] })
    const two = topic({ interests: ['TypeScript', 'React', 'Go'] })
    expect(recommendFor(me, [one, two]).map((r) => r.topic.id)).toEqual([two.id, one.id])
  })

  it('a new weight changes the order', () => {
    const me = person({ preferredLocation: 'in-person' })
    const near = topic({ interests: ['TypeScript', 'Go', 'Rust'], location: 'in-person' })
    const close = topic({ interests: ['TypeScript', 'React'], location: 'online' })
    expect(recommendFor(me, [near, close])[0]?.topic.id).toBe(close.id)
    const weights = { ...DEFAULT_MATCH_WEIGHTS, location: 10 }
    expect(recommendFor(me, [near, close], { weights })[0]?.topic.id).toBe(near.id)
  })
})

describe('recommend: capacity-aware first place', () => {
  const crowd = (n: number, over: Partial<MatchPerson> = {}) =>
    Array.from({ length: n }, (_, i) => person({ id: `p${i}`, ...over }))

  it('a topic is first for at most 3 people per free place; the rest get nothing first', () => {
    const popular = topic({ id: 'popular', interests: ['TypeScript', 'React'], maxMentees: 1 })
    const other = topic({ id: 'other', interests: ['TypeScript', 'Go', 'Rust'], maxMentees: 2 })
    const people = [...crowd(40), mentor()]
    const lists = people
      .filter((p) => p.id !== 'mentor')
      .map((me) => recommendFor(me, [popular, other], { people }))
    const firsts = lists.map((list) => list[0]?.topic.id)
    expect(firsts.filter((id) => id === 'popular')).toHaveLength(3)
    expect(firsts.filter((id) => id === 'other')).toHaveLength(6)
    expect(firsts.filter((id) => id === undefined)).toHaveLength(31)
    // Those are shown the topics that fit them apart, as in demand.
    const unplaced = people.find((p, i) => p.id !== 'mentor' && lists[i]?.length === 0)
    expect(
      inDemand({
        me: unplaced as MatchPerson,
        topics: [popular, other],
        people,
        applied: new Set(),
        dismissed: new Set(),
        weights: DEFAULT_MATCH_WEIGHTS,
      }).map((r) => r.topic.id),
    ).toEqual(['popular', 'other'])
    // Admitted to the second choice: the first choice still follows it.
    const second = lists.find((list) => list[0]?.topic.id === 'other')
    expect(second?.map((r) => r.topic.id)).toEqual(['other', 'popular'])
  })

  it('people without a mentor come first for the scarce places', () => {
    const popular = topic({ id: 'popular', interests: ['TypeScript', 'React'], maxMentees: 1 })
    const other = topic({ id: 'other', interests: ['TypeScript', 'Go', 'Rust'], maxMentees: 2 })
    const mentored = crowd(20, { hasMentor: true })
    const fresh = Array.from({ length: 3 }, (_, i) => person({ id: `new${i}` }))
    const people = [...mentored, ...fresh, mentor()]
    for (const me of fresh) {
      expect(recommendFor(me, [popular, other], { people })[0]?.topic.id).toBe('popular')
    }
    const firsts = mentored.map((me) => recommendFor(me, [popular, other], { people })[0]?.topic.id)
    expect(firsts).not.toContain('popular')
  })
})

describe('candidatesFor: people who might fit', () => {
  it('lists only people looking for a mentor who fit, not applicants, best first', () => {
    const t = topic({ interests: ['TypeScript', 'React'], seniorityRequired: ['junior'] })
    const people = [
      person({ id: 'both', interests: ['React', 'TypeScript'], seniority: 'junior' }),
      person({ id: 'one', interests: ['react.js'], seniority: 'senior', hasMentor: true }),
      person({ id: 'level', interests: ['Cooking'], seniority: 'junior' }),
      person({ id: 'none', interests: ['Cooking'], seniority: 'senior' }),
      person({ id: 'quiet', lookingForMentor: false }),
      person({ id: 'applied' }),
      mentor(),
    ]
    const found = candidatesFor({
      topic: t,
      people,
      applied: new Set(['applied']),
      weights: DEFAULT_MATCH_WEIGHTS,
    })
    expect(found.map((c) => c.person.id)).toEqual(['both', 'level', 'one'])
    expect(found[0]?.reasons).toEqual(['Shares TypeScript and React', 'Junior', 'No mentor yet'])
    expect(found[2]?.reasons).toEqual(['Shares React'])
  })
})

describe('interest suggestions', () => {
  const known = countInterests([
    ['React', 'TypeScript'],
    ['react.js', 'Go'],
    ['React', 'Rust'],
    ['TypeScript'],
  ])

  it('counts spellings as one interest, named by the most used spelling', () => {
    expect(known.slice(0, 2)).toEqual([
      { name: 'React', count: 3 },
      { name: 'TypeScript', count: 2 },
    ])
  })

  it('suggests what starts with the typed text first, then what contains it', () => {
    expect(suggestInterests('r', known, [])).toEqual(['React', 'Rust', 'TypeScript'])
    expect(suggestInterests('reactjs', known, [])).toEqual(['React'])
  })

  it('leaves out what is chosen, in any spelling, and suggests the most used for nothing typed', () => {
    expect(suggestInterests('', known, ['ReactJS'], 2)).toEqual(['TypeScript', 'Go'])
  })
})

describe('schemas', () => {
  it('weights: whole numbers 0..10, interests must count', () => {
    expect(matchWeightsSchema.safeParse(DEFAULT_MATCH_WEIGHTS).success).toBe(true)
    expect(matchWeightsSchema.safeParse({ ...DEFAULT_MATCH_WEIGHTS, interests: 0 }).success).toBe(
      false,
    )
    expect(matchWeightsSchema.safeParse({ ...DEFAULT_MATCH_WEIGHTS, location: 11 }).success).toBe(
      false,
    )
    expect(matchWeightsSchema.safeParse({ ...DEFAULT_MATCH_WEIGHTS, seniority: 1.5 }).success).toBe(
      false,
    )
  })

  it('limit: 1..50, default 10', () => {
    expect(recommendationsQuerySchema.parse({})).toEqual({ limit: 10 })
    expect(recommendationsQuerySchema.safeParse({ limit: '51' }).success).toBe(false)
    expect(recommendationsQuerySchema.safeParse({ limit: '0' }).success).toBe(false)
  })
})
