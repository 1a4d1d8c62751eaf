import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openApp, PHONE, screenshotWidths, seriousAxeViolations, uniqueName } from './app.ts'
import { launchBrowser } from './browser.ts'
import { approvedTopic, type Cast, cardOf, castOf, chooseFilter } from './topics-fixtures.ts'

// The topic list with more topics than fit: only the rows near the viewport
// are in the document, every topic is reached by scrolling, the search finds
// topics by any of their words (with a typo), marks the words, and keeps them
// in the URL; a new route starts at the top and Back returns to the same
// place in the list (issue 14; issue 16 item 6).

const TOPICS = 60

let browser: Browser
let cast: Cast
let tag: string
/** A word only one topic's description has (letters only: one search word). */
let rareWord: string
let subjects: string[]

beforeAll(async () => {
  browser = await launchBrowser()
  cast = await castOf(browser)
  tag = uniqueName('Scale')
  rareWord = `marigold${Math.random()
    .toString(36)
    .replace(/[^a-z]/g, '')
    .slice(0, 6)}`
  subjects = []
  // Oldest first: the list shows the newest first, so `Scale 59` is on top.
  for (let i = 0; i < TOPICS; i++) {
    const topic = await approvedTopic(cast, {
      subject: `${tag} ${i}`,
      description:
        i === 7
          ? `<p>Weekly sessions. We start with the basics, then practise the ${rareWord} method on real code review examples from your own team.</p>`
          : '<p>Weekly sessions on what you bring.</p>',
      interests: i === 11 ? ['Kubernetes'] : ['Testing'],
    })
    subjects.push(topic.subject)
  }
}, 120_000)

afterAll(async () => {
  await cast?.dispose()
  await browser?.close()
})

/** The subjects of this file's topics that are in the document now. */
async function renderedOwn(page: Page): Promise<string[]> {
  return (await page.getByTestId('topic-card').getByRole('heading').allTextContents()).filter((s) =>
    s.startsWith(tag),
  )
}

/** Scrolls the window down a screen at a time until `subject`'s card is in the document. */
async function scrollTo(page: Page, subject: string): Promise<void> {
  for (let step = 0; step < 200; step++) {
    if ((await cardOf(page, subject).count()) > 0) {
      // The list may draw the card again between finding it and scrolling to it (a sync page
      // arriving, the scroll's end): then it is found again on the next step.
      const scrolled = await cardOf(page, subject)
        .scrollIntoViewIfNeeded({ timeout: 2_000 })
        .then(() => true)
        .catch((error: Error) => {
          if (!/not attached|Timeout/.test(error.message)) throw error
          return false
        })
      if (scrolled) return
      await page.waitForTimeout(30)
      continue
    }
    await page.evaluate(() => window.scrollBy(0, window.innerHeight * 0.8))
    await page.waitForTimeout(30)
  }
  throw new Error(`${subject} never appeared while scrolling`)
}

describe('the topic list with many topics', () => {
  it('renders only the rows near the viewport, and reaches every topic by scrolling', async () => {
    const app = await openApp(browser, uniqueName('mentee'), { path: '/topics', ...PHONE })
    const { page } = app
    await cardOf(page, subjects[TOPICS - 1] as string).waitFor()

    const list = page.getByRole('list', { name: 'Topics' })
    const total = Number(await list.getByRole('listitem').first().getAttribute('aria-setsize'))
    expect(total).toBeGreaterThanOrEqual(TOPICS)
    // A phone shows two or three cards: a few screens of them are rendered, not all.
    const rendered = await page.getByTestId('topic-card').count()
    expect(rendered).toBeGreaterThan(2)
    expect(rendered).toBeLessThan(20)
    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toMatch(/^\d[\d,]* topics$/)

    await scrollTo(page, subjects[0] as string)
    expect(await renderedOwn(page)).not.toContain(subjects[TOPICS - 1])
    const position = await cardOf(page, subjects[0] as string)
      .locator('xpath=ancestor::*[@role="listitem"]')
      .getAttribute('aria-posinset')
    expect(Number(position)).toBeGreaterThanOrEqual(TOPICS)

    expect(await seriousAxeViolations(page)).toEqual([])
    await app.expectClean()
    await app.close()
  })

  it('lays the cards out one, two or three to a row by the window width, and again when it changes', async () => {
    const app = await openApp(browser, uniqueName('mentee'), { path: '/topics', ...PHONE })
    const { page } = app
    await cardOf(page, subjects[TOPICS - 1] as string).waitFor()
    // The cards in each drawn row, and whether every topic still has its place.
    const rows = () =>
      page.evaluate(() => {
        const drawn = [
          ...document.querySelectorAll('[role="list"][aria-label="Topics"] > [data-index]'),
        ]
        return drawn.map((row) => row.querySelectorAll('[role="listitem"]').length)
      })
    const cardsPerRow = async () => Math.max(...(await rows()))
    expect(await cardsPerRow()).toBe(1)
    for (const [width, columns] of [
      [800, 2],
      [1280, 3],
      [360, 1],
    ] as const) {
      await page.setViewportSize({ width, height: 800 })
      await expect.poll(cardsPerRow).toBe(columns)
      // Every drawn row is full but the last one of the list.
      expect((await rows()).slice(0, -1).every((n) => n === columns)).toBe(true)
    }
    await app.expectClean()
    await app.close()
  })

  it('draws two rows past the viewport at rest (a keystroke redraws few) and four while the page scrolls', async () => {
    const app = await openApp(browser, uniqueName('mentee'), { path: '/topics', ...PHONE })
    const { page } = app
    await cardOf(page, subjects[TOPICS - 1] as string).waitFor()
    await scrollTo(page, subjects[TOPICS - 10] as string)
    await page.waitForTimeout(400)
    // Rows wholly below the viewport, and wholly above it.
    const beyond = () =>
      page.evaluate(() => {
        const rows = [
          ...document.querySelectorAll('[role="list"][aria-label="Topics"] > [data-index]'),
        ]
        const boxes = rows.map((row) => row.getBoundingClientRect())
        return {
          below: boxes.filter((b) => b.top >= window.innerHeight).length,
          above: boxes.filter((b) => b.bottom <= 0).length,
        }
      })
    await expect.poll(beyond).toEqual({ below: 2, above: 2 })
    // Scrolling: rows are ready for a fling while the main thread draws.
    const scrolling = await page.evaluate(async () => {
      // Ten frames of 40 px: the most rows below the viewport seen on the way.
      let most = 0
      for (let frame = 0; frame < 10; frame++) {
        window.scrollBy(0, 40)
        await new Promise((resolve) => requestAnimationFrame(resolve))
        const rows = [
          ...document.querySelectorAll('[role="list"][aria-label="Topics"] > [data-index]'),
        ]
        const below = rows.filter((r) => r.getBoundingClientRect().top >= window.innerHeight)
        most = Math.max(most, below.length)
      }
      return most
    })
    expect(scrolling).toBe(4)
    // At rest again (the scroll counts as over 150 ms after its last event).
    await expect.poll(beyond).toEqual({ below: 2, above: 2 })
    await app.expectClean()
    await app.close()
  })

  it('searches descriptions, interests and mentors, with a typo, marks the words and keeps them in the URL', async () => {
    const app = await openApp(browser, uniqueName('mentee'), { path: '/topics' })
    const { page } = app
    await cardOf(page, subjects[TOPICS - 1] as string).waitFor()
    const search = page.getByRole('searchbox', { name: 'Search topics' })

    await search.fill(rareWord)
    await expect.poll(() => renderedOwn(page)).toEqual([subjects[7]])
    const card = cardOf(page, subjects[7] as string)
    expect(await card.locator('mark').allTextContents()).toEqual([rareWord])
    expect(await card.textContent()).toContain('code review examples')
    // The address follows a moment after the last key.
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(rareWord)
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('1 topic found')

    // One letter left out, and the start of a second word: still found.
    await search.fill(`${rareWord.slice(0, 4)}${rareWord.slice(5)} cod`)
    await expect.poll(() => renderedOwn(page)).toEqual([subjects[7]])

    await search.fill(`kubernetes ${tag}`)
    await expect.poll(() => renderedOwn(page)).toEqual([subjects[11]])
    expect(
      await cardOf(page, subjects[11] as string)
        .getByText('Interests:')
        .textContent(),
    ).toBe('Interests: Kubernetes')

    // The mentor's name: every topic of theirs, ranked, and the filters still apply.
    await search.fill(cast.mentor.user.username)
    await expect.poll(async () => (await renderedOwn(page)).length).toBeGreaterThan(3)
    await chooseFilter(page, 'Location', 'In Person')
    await page.getByText('No topics found', { exact: true }).waitFor()
    await screenshotWidths(page, 'topics-search-empty')
    await chooseFilter(page, 'Location', 'All Locations')

    await search.fill(rareWord)
    await expect.poll(() => renderedOwn(page)).toEqual([subjects[7]])
    await screenshotWidths(page, 'topics-search')
    // A link with the words opens the same result.
    await page.goto(`/topics?q=${rareWord}`)
    await expect.poll(() => renderedOwn(page)).toEqual([subjects[7]])
    expect(await search.inputValue()).toBe(rareWord)
    await search.fill('')
    await expect.poll(async () => (await renderedOwn(page)).length).toBeGreaterThan(1)
    await expect.poll(() => new URL(page.url()).search).toBe('')

    expect(await seriousAxeViolations(page)).toEqual([])
    await app.expectClean()
    await app.close()
  })

  it('starts a topic page at the top, and Back returns to the same place in the list', async () => {
    const app = await openApp(browser, uniqueName('mentee'), { path: '/topics', ...PHONE })
    const { page } = app
    const target = subjects[TOPICS - 25] as string
    await cardOf(page, subjects[TOPICS - 1] as string).waitFor()
    await scrollTo(page, target)
    const before = await page.evaluate(() => window.scrollY)
    expect(before).toBeGreaterThan(2000)

    await cardOf(page, target).getByRole('link', { name: target }).click()
    await page.getByRole('heading', { level: 1, name: target }).waitFor()
    expect(await page.evaluate(() => window.scrollY)).toBe(0)

    await page.goBack()
    await cardOf(page, target).waitFor()
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(before - 50)
    expect(await page.evaluate(() => window.scrollY)).toBeLessThan(before + 50)
    const box = await cardOf(page, target).boundingBox()
    expect(box && box.y > -box.height && box.y < PHONE.height).toBe(true)

    await page.goForward()
    await page.getByRole('heading', { level: 1, name: target }).waitFor()
    await app.expectClean()
    await app.close()
  })
})
