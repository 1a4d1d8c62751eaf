import { useEffect, useLayoutEffect, useRef } from 'react'
import { useLocation, useNavigationType } from 'react-router-dom'

const STORAGE_KEY = 'pairwise-scroll-positions'

function savedPositions(): Record<string, number> {
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}')
    return saved && typeof saved === 'object' ? (saved as Record<string, number>) : {}
  } catch {
    return {}
  }
}

/**
 * Where the page scrolls to on each address, for the declarative router
 * (decision 0046):
 * - Back and Forward put the page back where it was for that history entry,
 *   also after a reload (the positions are kept in sessionStorage).
 * - A new screen starts at the top, or at the element its `#hash` names.
 * - The same screen with other search words or filters (the address's query
 *   alone changed) stays where it is. The topic list moves to its own first
 *   row when a filter changes.
 *
 * Each entry's position is written as the page scrolls. Waiting until the
 * address changes would be too late: by then the next screen may have
 * shortened the page, and the browser clamps the position.
 *
 * Called by the layout, whose layout effects run after the new screen's (it
 * renders the screen, and re-renders with each address), so a position is
 * restored against the page it belongs to.
 */
export function useScrollRestoration(): void {
  const location = useLocation()
  const navigation = useNavigationType()
  const positions = useRef<Record<string, number> | null>(null)
  positions.current ??= savedPositions()
  const shown = useRef({ key: location.key, pathname: location.pathname })

  useEffect(() => {
    const all = positions.current as Record<string, number>
    window.history.scrollRestoration = 'manual'
    const note = () => {
      all[shown.current.key] = window.scrollY
    }
    const keep = () => {
      note()
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(all))
      } catch {
        // Storage full or refused: Back still works in this page's life.
      }
    }
    window.addEventListener('scroll', note, { passive: true })
    window.addEventListener('pagehide', keep)
    return () => {
      window.removeEventListener('scroll', note)
      window.removeEventListener('pagehide', keep)
      window.history.scrollRestoration = 'auto'
    }
  }, [])

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per history entry shown
  useLayoutEffect(() => {
    const sameScreen = shown.current.pathname === location.pathname
    const first = shown.current.key === location.key
    shown.current = { key: location.key, pathname: location.pathname }
    if (navigation === 'POP') {
      const y = positions.current?.[location.key]
      if (y !== undefined) {
        window.scrollTo(0, y)
        return
      }
    }
    if (location.hash) {
      const target = document.getElementById(decodeURIComponent(location.hash.slice(1)))
      if (target) {
        target.scrollIntoView()
        return
      }
    }
    if (sameScreen && !first) return
    window.scrollTo(0, 0)
  }, [location.key])
}
