import { useWindowVirtualizer, type VirtualItem } from '@tanstack/react-virtual'
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
 * one column on phones, two from 768 px, three from 1024 px, as the plain
 * grids elsewhere. The page scrolls as a whole (the window is the scroller),
 * so Back/Forward scroll restoration and the browser's find-in-page of the
 * rendered rows work as on any page. Each item is a listitem with its
 * position in the whole set, so a screen reader says "12 of 10,000".
 *
 * Row heights are measured as they render; `cacheKey` keeps the measurements
 * for the tab's lifetime, so coming back to the list lays it out at the height
 * it had and the saved scroll position is still there.
 */

const GAP_PX = 20

function columnsNow(): number {
  if (typeof window === 'undefined') return 1
  if (window.matchMedia('(min-width: 1024px)').matches) return 3
  if (window.matchMedia('(min-width: 768px)').matches) return 2
  return 1
}

function subscribeColumns(onChange: () => void): () => void {
  const queries = ['(min-width: 1024px)', '(min-width: 768px)'].map((q) => window.matchMedia(q))
  for (const q of queries) q.addEventListener('change', onChange)
  return () => {
    for (const q of queries) q.removeEventListener('change', onChange)
  }
}

const measurements = new Map<string, VirtualItem[]>()

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
}) {
  const { items, keyOf, renderItem, estimateRowHeight, cacheKey } = props
  const columns = useSyncExternalStore(subscribeColumns, columnsNow, () => 1)
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

  const rowKey = useMemo(
    () => (row: number) => `${columns}:${keyOf(items[row * columns] as T)}`,
    [columns, items, keyOf],
  )
  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => estimateRowHeight,
    overscan: 4,
    scrollMargin,
    getItemKey: rowKey,
    initialMeasurementsCache: cacheKey ? measurements.get(cacheKey) : undefined,
  })

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
            className="absolute top-0 left-0 grid w-full grid-cols-1 gap-5 md:grid-cols-2 lg:grid-cols-3"
            style={{
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
