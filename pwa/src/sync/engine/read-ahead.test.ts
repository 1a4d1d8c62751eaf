import { describe, expect, it } from 'vitest'
import type { Answer } from '../../lib/http.ts'
import { READ_AHEAD, readAhead } from './page.ts'

/** A pull whose answers the test gives, one request at a time. */
function fakePull() {
  const asked: (string | undefined)[] = []
  const answers = new Map<string | undefined, (answer: Answer) => void>()
  const ask = (cursor: string | undefined) => {
    asked.push(cursor)
    return new Promise<Answer>((resolve) => answers.set(cursor, resolve))
  }
  /** Answers the page from `cursor`, naming `next` as the one after it (null: the last page). */
  const answer = async (cursor: string | undefined, next: string | null) => {
    answers.get(cursor)?.({
      status: 200,
      body: { hasMore: next !== null, cursor: next ?? 'end', changes: {}, removed: {} },
    })
    // The queue's own then runs first; one more turn for what it asks.
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
  return { asked, ask, answer }
}

describe('the pull reading ahead', () => {
  it('asks for the next page as soon as a page names it, before that page is taken', async () => {
    const pull = fakePull()
    const ahead = readAhead(pull.ask)
    const first = ahead.take(undefined)
    expect(pull.asked).toEqual([undefined])
    await pull.answer(undefined, 'c1')
    expect(pull.asked).toEqual([undefined, 'c1'])
    await pull.answer('c1', 'c2')
    await pull.answer('c2', 'c3')
    // Still writing the first page: three more asked, not four.
    expect(pull.asked).toEqual([undefined, 'c1', 'c2', 'c3'])
    expect(pull.asked.length - 1).toBe(READ_AHEAD)
    await pull.answer('c3', 'c4')
    expect(pull.asked).toEqual([undefined, 'c1', 'c2', 'c3'])
    expect((await first).status).toBe(200)

    // Taking the next page makes room for one more.
    await ahead.take('c1')
    expect(pull.asked).toEqual([undefined, 'c1', 'c2', 'c3', 'c4'])
    // The pages asked ahead are the ones taken: no second request for them.
    await ahead.take('c2')
    await ahead.take('c3')
    expect(pull.asked.filter((c) => c === 'c2')).toHaveLength(1)
    ahead.close()
  })

  it('stops at the last page, and asks nothing once closed', async () => {
    const pull = fakePull()
    const ahead = readAhead(pull.ask)
    void ahead.take(undefined)
    await pull.answer(undefined, null)
    expect(pull.asked).toEqual([undefined])

    const other = readAhead(pull.ask)
    void other.take('x')
    other.close()
    await pull.answer('x', 'y')
    expect(pull.asked).toEqual([undefined, 'x'])
  })

  it('asks again from the cursor taken when the chain went elsewhere, and after a drop', async () => {
    const pull = fakePull()
    const ahead = readAhead(pull.ask)
    void ahead.take('a')
    await pull.answer('a', 'b')
    expect(pull.asked).toEqual(['a', 'b'])
    // A restart from the beginning: the page asked ahead is not it.
    void ahead.take(undefined)
    expect(pull.asked).toEqual(['a', 'b', undefined])
    // A dropped chain's late answer asks nothing more.
    ahead.drop()
    await pull.answer('b', 'c')
    expect(pull.asked).toEqual(['a', 'b', undefined])
    void ahead.take('z')
    expect(pull.asked).toEqual(['a', 'b', undefined, 'z'])
    ahead.close()
  })

  it('uses an answer asked before the pull began (seed), for its cursor only', async () => {
    const pull = fakePull()
    const ahead = readAhead(pull.ask)
    const early = pull.ask(undefined)
    ahead.seed(undefined, early)
    expect(await Promise.race([ahead.take(undefined), Promise.resolve('pending')])).toBe('pending')
    expect(pull.asked).toEqual([undefined])
    await pull.answer(undefined, 'c1')
    expect(pull.asked).toEqual([undefined, 'c1'])
    ahead.close()
  })
})
