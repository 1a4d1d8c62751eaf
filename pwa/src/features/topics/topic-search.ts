import MiniSearch, { type SearchResult } from 'minisearch'
import type { SyncTopic } from '../../sync/engine/db.ts'
import type { Merged } from '../../sync/engine/overlay.ts'

/**
 * The offline topic search of /topics: a MiniSearch index (decision 0035)
 * over subject, description text, interests and mentor name, typo-tolerant
 * and by prefix, ranked (BM25, the subject weighing most). The index lives
 * as long as the tab, one per user database, and follows the synced topics
 * incrementally: only rows whose version (or pending changes) differ are
 * indexed again, in slices of a few milliseconds so typing and scrolling go
 * on while thousands of topics are indexed after a first sync.
 */

type SearchDoc = { id: string; subject: string; text: string; interests: string; mentor: string }

/** What a search found in one topic: its rank score and the words that matched. */
export type TopicHit = { score: number; terms: readonly string[]; inText: boolean }

export type SearchableTopic = Pick<
  Merged<SyncTopic>,
  'id' | 'version' | 'subject' | 'description' | 'interests' | 'mentor' | 'sync'
>

const FIELDS = ['subject', 'text', 'interests', 'mentor'] as const

/** The budget of one indexing slice: short enough not to be felt between frames. */
const SLICE_MS = 8

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
}

/** The words of a description's (sanitised) HTML, without tags or entities. */
export function textOfHtml(html: string): string {
  return html
    .replace(/<\/(p|li|h[1-6]|blockquote|pre)>|<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code =
          name[1] === 'x' || name[1] === 'X'
            ? Number.parseInt(name.slice(2), 16)
            : Number(name.slice(1))
        return Number.isFinite(code) && code > 0 && code < 0x110000
          ? String.fromCodePoint(code)
          : whole
      }
      return ENTITIES[name.toLowerCase()] ?? whole
    })
    .replace(/\s+/g, ' ')
    .trim()
}

function docOf(topic: SearchableTopic): SearchDoc {
  return {
    id: topic.id,
    subject: topic.subject,
    text: textOfHtml(topic.description),
    interests: topic.interests.join(' · '),
    mentor: `${topic.mentor.full_name} ${topic.mentor.username}`,
  }
}

/** Changes when the indexed content of a topic may have. */
function stampOf(topic: SearchableTopic): string {
  return `${topic.version ?? ''}|${topic.sync.mutations.join(',')}`
}

function newIndex(): MiniSearch<SearchDoc> {
  return new MiniSearch<SearchDoc>({
    fields: [...FIELDS],
    storeFields: [],
    searchOptions: {
      boost: { subject: 3, interests: 2, mentor: 2 },
      prefix: true,
      // One typo in a word of 4+ letters, two in a long one; none in codes and numbers.
      fuzzy: (term) => (/\d/.test(term) || term.length < 4 ? false : term.length < 9 ? 1 : 2),
      combineWith: 'AND',
    },
  })
}

export class TopicSearchIndex {
  private readonly mini = newIndex()
  /** The stamp each indexed topic was indexed at. */
  private readonly indexed = new Map<string, string>()
  /** Topics waiting to be (re)indexed, by id. */
  private readonly queue = new Map<string, { doc: SearchDoc; stamp: string }>()
  private draining = false
  private readonly listeners = new Set<() => void>()
  /** Bumped when what a search would find changes. */
  private revision = 0

  /** Brings the index up to `topics`: gone ones leave at once, new and changed ones are queued. */
  sync(topics: readonly SearchableTopic[]): void {
    const live = new Set<string>()
    for (const topic of topics) {
      live.add(topic.id)
      const stamp = stampOf(topic)
      if (this.indexed.get(topic.id) === stamp) {
        this.queue.delete(topic.id)
        continue
      }
      if (this.queue.get(topic.id)?.stamp !== stamp) {
        this.queue.set(topic.id, { doc: docOf(topic), stamp })
      }
    }
    let removed = false
    for (const id of [...this.indexed.keys()]) {
      if (live.has(id)) continue
      this.mini.discard(id)
      this.indexed.delete(id)
      removed = true
    }
    for (const id of [...this.queue.keys()]) if (!live.has(id)) this.queue.delete(id)
    if (removed) this.changed()
    this.drain()
  }

  /** Something has been indexed or is queued: the index is in use. */
  get started(): boolean {
    return this.indexed.size > 0 || this.queue.size > 0
  }

  /** Every queued topic is indexed. */
  get ready(): boolean {
    return this.queue.size === 0
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  getRevision = (): number => this.revision

  /** The topics matching every word of `query` (prefix, typos allowed), best first. */
  search(query: string): Map<string, TopicHit> {
    const hits = new Map<string, TopicHit>()
    if (query.trim() === '') return hits
    const results: SearchResult[] = this.mini.search(query)
    for (const r of results) {
      hits.set(String(r.id), {
        score: r.score,
        terms: r.terms,
        inText: Object.values(r.match).some((fields) => fields.includes('text')),
      })
    }
    return hits
  }

  private changed(): void {
    this.revision += 1
    for (const listener of this.listeners) listener()
  }

  private drain(): void {
    if (this.draining || this.queue.size === 0) return
    this.draining = true
    const slice = () => {
      const until = performance.now() + SLICE_MS
      for (const [id, { doc, stamp }] of this.queue) {
        if (this.indexed.has(id)) this.mini.discard(id)
        this.mini.add(doc)
        this.indexed.set(id, stamp)
        this.queue.delete(id)
        if (performance.now() >= until) break
      }
      if (this.queue.size > 0) {
        setTimeout(slice, 0)
        return
      }
      this.draining = false
      this.changed()
    }
    setTimeout(slice, 0)
  }
}

const indexes = new Map<string, TopicSearchIndex>()

/** The tab's index of one user database (created empty on first use). */
export function topicSearchIndex(databaseName: string): TopicSearchIndex {
  let index = indexes.get(databaseName)
  if (!index) {
    index = new TopicSearchIndex()
    indexes.set(databaseName, index)
  }
  return index
}

const WORD = /[\p{L}\p{N}]+/gu

/** `text` cut in parts, the words among `terms` (lower case) marked. */
export function markTerms(
  text: string,
  terms: ReadonlySet<string>,
): { text: string; marked: boolean; start: number }[] {
  if (terms.size === 0) return [{ text, marked: false, start: 0 }]
  const parts: { text: string; marked: boolean; start: number }[] = []
  let at = 0
  for (const m of text.matchAll(WORD)) {
    if (!terms.has(m[0].toLowerCase())) continue
    if (m.index > at) parts.push({ text: text.slice(at, m.index), marked: false, start: at })
    parts.push({ text: m[0], marked: true, start: m.index })
    at = m.index + m[0].length
  }
  if (at < text.length) parts.push({ text: text.slice(at), marked: false, start: at })
  return parts
}

/** About `radius` characters either side of the first matched word of `text`, cut at spaces. */
export function excerptAround(text: string, terms: ReadonlySet<string>, radius = 90): string {
  let first = -1
  for (const m of text.matchAll(WORD)) {
    if (terms.has(m[0].toLowerCase())) {
      first = m.index
      break
    }
  }
  if (first < 0 || text.length <= radius * 2) return text
  let start = Math.max(0, first - radius)
  let end = Math.min(text.length, first + radius)
  if (start > 0) start = text.indexOf(' ', start) + 1 || start
  if (end < text.length) end = text.lastIndexOf(' ', end) > first ? text.lastIndexOf(' ', end) : end
  return `${start > 0 ? '… ' : ''}${text.slice(start, end).trim()}${end < text.length ? ' …' : ''}`
}
