import { useWindowVirtualizer, type VirtualItem, type Virtualizer } from '@tanstack/react-virtual'
import {
  type ReactNode,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react'

/**
 * A card grid that renders only the rows near the viewport (decision 0035):
 * by default one column on phones, two from 768 px, three from 1024 px. The page scrolls as a whole (the window is the scroller),
 * so Back/Forward scroll restoration and the browser's find-in-page of the
 * rendered rows work as on any page. Each item is a listitem with its
 * position in the whole set, so a screen reader says "12 of 10,000".
 *
 * Row heights are measured as they render; `cacheKey` keeps the measurements
 * for the tab's lifetime, so coming back to the list lays it out at the height
 * it had and the saved scroll position is still there.
 */

const GAP_PX = 20

/** Columns from a viewport width up: `[[768, 2], [1024, 3]]` is one, then two, then three. */
export type Breakpoints = readonly (readonly [minWidthPx: number, columns: number])[]

const CARD_GRID: Breakpoints = [
  [768, 2],
  [1024, 3],
]

/** The columns of the last breakpoint whose query matches; one below them all. */
function columnsOf(breakpoints: Breakpoints, queries: readonly MediaQueryList[]): number {
  let columns = 1
  breakpoints.forEach(([, n], i) => {
    if (queries[i]?.matches) columns = n
  })
  return columns
}

function useColumns(breakpoints: Breakpoints): number {
  const key = JSON.stringify(breakpoints)
  // The media query lists are made once: the snapshot is read on every render (a scroll
  // renders the grid each frame), and a matchMedia call each time cost a fling 1-2 % of its frames' time.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is the breakpoints' value
  const [subscribe, get] = useMemo(() => {
    const queries = breakpoints.map(([width]) => window.matchMedia(`(min-width: ${width}px)`))
    return [
      (onChange: () => void) => {
        for (const q of queries) q.addEventListener('change', onChange)
        return () => {
          for (const q of queries) q.removeEventListener('change', onChange)
        }
      },
      () => columnsOf(breakpoints, queries),
    ] as const
  }, [key])
  return useSyncExternalStore(subscribe, get, () => 1)
}

const measurements = new Map<string, VirtualItem[]>()

/**
 * Rows drawn beyond the viewport on each side. While the page scrolls, four:
 * a fling (up to 133 px a frame on a phone) has rows ready when the
 * compositor moves the page faster than the main thread draws. At rest, two:
 * a search keystroke or a filter replaces every drawn row, and each row drawn
 * costs that keystroke's frame (at 10,000 topics, side by side: a key's
 * median to the painted list 39 ms with four, 32 ms with two and four while
 * scrolling).
 */
const OVERSCAN_SCROLLING = 4
const OVERSCAN_AT_REST = 2

export function VirtualGrid<T>(props: {
  items: readonly T[]
  keyOf: (item: T) => string
  renderItem: (item: T, index: number) => ReactNode
  /** The list's accessible name. */
  label: string
  /** A first guess of one row's height (px), gap included. */
  estimateRowHeight: number
  /** Keeps row measurements across visits (e.g. the route). */
  cacheKey?: string
  /** The columns per viewport width; the card grid's 1/2/3 by default. */
  breakpoints?: Breakpoints
}) {
  const { items, keyOf, renderItem, estimateRowHeight, cacheKey } = props
  const columns = useColumns(props.breakpoints ?? CARD_GRID)
  const rowCount = Math.ceil(items.length / columns)
  const listRef = useRef<HTMLDivElement>(null)
  const [scrollMargin, setScrollMargin] = useState(0)

  // The list's distance from the top of the page, which the header and filters above it set.
  useLayoutEffect(() => {
    const list = listRef.current
    if (!list) return
    const measure = () => {
      const top = list.getBoundingClientRect().top + window.scrollY
      setScrollMargin((current) => (Math.abs(current - top) < 1 ? current : top))
    }
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(document.body)
    return () => observer.disconnect()
  }, [])

  // Each row's key, made once per list: the virtualizer asks for the key of every row
  // from the first one whose height changed to the last, and while a fling measures new rows
  // that is thousands of keys a frame (built on demand, they were a fling's largest cost in
  // this component).
  const rowKey = useMemo(() => {
    const keys = new Array<string>(rowCount)
    for (let row = 0; row < rowCount; row++) {
      keys[row] = `${columns}:${keyOf(items[row * columns] as T)}`
    }
    return (row: number) => keys[row] ?? `${columns}:${row}`
  }, [columns, items, keyOf, rowCount])
  // The virtualizer of the last render: whether the page is scrolling (it renders again when that changes).
  const last = useRef<Virtualizer<Window, Element> | null>(null)
  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => estimateRowHeight,
    overscan: last.current?.isScrolling ? OVERSCAN_SCROLLING : OVERSCAN_AT_REST,
    scrollMargin,
    getItemKey: rowKey,
    initialMeasurementsCache: cacheKey ? measurements.get(cacheKey) : undefined,
  })

  last.current = virtualizer

  useLayoutEffect(() => {
    if (!cacheKey) return
    return () => {
      measurements.set(cacheKey, virtualizer.measurementsCache)
    }
  }, [cacheKey, virtualizer])

  const rows = virtualizer.getVirtualItems()
  return (
    // biome-ignore lint/a11y/useSemanticElements: a <ul> may hold only <li>, and the rows between are positioned <div>s
    <div
      ref={listRef}
      role="list"
      aria-label={props.label}
      className="relative w-full"
      style={{ height: virtualizer.getTotalSize() }}
    >
      {rows.map((row) => {
        const first = row.index * columns
        const cells = items.slice(first, first + columns)
        return (
          <div
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            className="absolute top-0 left-0 grid w-full gap-5"
            style={{
              gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
              transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
              paddingBottom: GAP_PX,
            }}
          >
            {cells.map((item, i) => (
              // biome-ignore lint/a11y/useSemanticElements: see the list above
              <div
                key={keyOf(item)}
                role="listitem"
                aria-setsize={items.length}
                aria-posinset={first + i + 1}
              >
                {renderItem(item, first + i)}
              </div>
            ))}
          </div>
        )
      })}
    </div>
  )
}
