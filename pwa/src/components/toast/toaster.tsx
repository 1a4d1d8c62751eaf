import {
  CheckCircleIcon,
  ExclamationTriangleIcon,
  InformationCircleIcon,
  XMarkIcon,
} from '@heroicons/react/20/solid'
import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react'
import {
  TOAST_HOTKEY,
  TOAST_MAX_WIDTH_PX,
  TOAST_SWIPE_THRESHOLD_PX,
} from '../../../../shared/constants.ts'
import { cn } from '../ui/cn.ts'
import { dismissToast, getToasts, subscribeToasts, type Toast } from './store.ts'

/** What a toast must not hide: the controls of the screen. */
const CONTROLS =
  'main button, main a[href], main input, main select, main textarea, main [role="button"], main [role="switch"]'

/** The margin around the toasts (Tailwind p-4). */
const MARGIN_PX = 16

type Placement = { edge: 'bottom' } | { edge: 'moved'; top: number }

/**
 * Where the toasts go: at the bottom, unless they would hide a control there
 * (as when a mentor accepts one application and the next one's Accept and
 * Reject are at the foot of the screen). Then in the lowest band of the
 * screen, under the sticky bar, where no control is; with none free, where
 * they hide the fewest. Looked at again as the page scrolls, resizes or
 * changes.
 */
function placeToasts(list: HTMLElement): Placement {
  const box = list.getBoundingClientRect()
  const height = box.height
  const barBottom = Math.max(
    0,
    document.querySelector('header')?.getBoundingClientRect().bottom ?? 0,
  )
  const highest = barBottom + MARGIN_PX / 2
  const lowest = window.innerHeight - MARGIN_PX - height
  // The controls' vertical extents, of those in the toasts' columns.
  const taken: [number, number][] = []
  for (const el of document.querySelectorAll(CONTROLS)) {
    const r = el.getBoundingClientRect()
    if (r.width === 0 || r.height === 0 || r.right <= box.left || r.left >= box.right) continue
    if (r.bottom <= highest || r.top >= window.innerHeight) continue
    taken.push([r.top - MARGIN_PX / 4, r.bottom + MARGIN_PX / 4])
  }
  const hides = (top: number) => taken.filter(([a, b]) => b > top && a < top + height).length
  if (hides(lowest) === 0) return { edge: 'bottom' }
  // From the bottom up: the first place whose band no control reaches.
  const tops = [lowest, ...taken.map(([a]) => a - height)]
    .filter((top) => top >= highest && top <= lowest)
    .sort((a, b) => b - a)
  for (const top of tops) if (hides(top) === 0) return { edge: 'moved', top }
  if (hides(highest) === 0) return { edge: 'moved', top: highest }
  return hides(highest) < hides(lowest) ? { edge: 'moved', top: highest } : { edge: 'bottom' }
}

/**
 * Where toasts show: bottom right (bottom on a phone), at most 420px wide,
 * or higher up where they hide no control (placeToasts). F8 moves
 * focus here; a toast stays while hovered or focused, closes after its time,
 * with its button, with Escape, or with a swipe to the right.
 */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts)
  const region = useRef<HTMLOListElement>(null)
  const [placement, setPlacement] = useState<Placement>({ edge: 'bottom' })

  useLayoutEffect(() => {
    const list = region.current
    if (!list || toasts.length === 0) return
    const place = () => {
      const next = placeToasts(list)
      setPlacement((current) =>
        current.edge === next.edge &&
        (next.edge === 'bottom' ||
          (current.edge === 'moved' && Math.abs(current.top - next.top) < 1))
          ? current
          : next,
      )
    }
    place()
    let frame = 0
    const later = () => {
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(place)
    }
    window.addEventListener('scroll', later, { passive: true })
    window.addEventListener('resize', later)
    // The screen may still be changing under the toast (the decided application leaves).
    const observer = new MutationObserver(later)
    const main = document.querySelector('main')
    if (main) observer.observe(main, { childList: true, subtree: true })
    return () => {
      cancelAnimationFrame(frame)
      observer.disconnect()
      window.removeEventListener('scroll', later)
      window.removeEventListener('resize', later)
    }
  }, [toasts])

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === TOAST_HOTKEY) {
        event.preventDefault()
        region.current?.focus()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  return (
    <section
      aria-label={`Notifications (${TOAST_HOTKEY})`}
      // Of the moment: a return visit's copy of the screen leaves it out (lib/snapshot.ts).
      data-no-snapshot=""
      data-edge={placement.edge}
      className={cn(
        'pointer-events-none fixed inset-x-0 z-[100] flex justify-center px-4 sm:justify-end',
        placement.edge === 'bottom' && 'bottom-0 py-4',
      )}
      style={placement.edge === 'moved' ? { top: placement.top } : undefined}
    >
      <ol
        ref={region}
        tabIndex={-1}
        className="pointer-events-auto flex w-full flex-col gap-2 focus:outline-none"
        style={{ maxWidth: TOAST_MAX_WIDTH_PX }}
      >
        {toasts.map((t) => (
          <ToastItem key={t.id} toast={t} />
        ))}
      </ol>
    </section>
  )
}

const ICONS = {
  success: <CheckCircleIcon className="size-5 text-emerald-500" aria-hidden="true" />,
  destructive: <ExclamationTriangleIcon className="size-5 text-white" aria-hidden="true" />,
  info: <InformationCircleIcon className="size-5 text-brand-500" aria-hidden="true" />,
}

function ToastItem({ toast }: { toast: Toast }) {
  const [paused, setPaused] = useState(false)
  const [offset, setOffset] = useState(0)
  const start = useRef<number | null>(null)

  useEffect(() => {
    if (paused) return
    const timer = setTimeout(() => dismissToast(toast.id), toast.duration)
    return () => clearTimeout(timer)
  }, [paused, toast.id, toast.duration])

  const destructive = toast.variant === 'destructive'
  return (
    <li>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the live region (alert or status) pauses on hover and is swiped away; Escape and the Close button do the same by keyboard */}
      <div
        role={destructive ? 'alert' : 'status'}
        aria-atomic="true"
        tabIndex={0}
        onMouseEnter={() => setPaused(true)}
        onMouseLeave={() => setPaused(false)}
        onFocus={() => setPaused(true)}
        onBlur={() => setPaused(false)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') dismissToast(toast.id)
        }}
        onPointerDown={(e) => {
          // The close button takes its own clicks; a swipe starts anywhere else.
          if ((e.target as HTMLElement).closest('button')) return
          start.current = e.clientX
        }}
        onPointerMove={(e) => {
          if (start.current === null) return
          const moved = Math.max(0, e.clientX - start.current)
          if (moved > 4 && !e.currentTarget.hasPointerCapture(e.pointerId))
            e.currentTarget.setPointerCapture(e.pointerId)
          setOffset(moved)
        }}
        onPointerUp={() => {
          if (offset > TOAST_SWIPE_THRESHOLD_PX) dismissToast(toast.id)
          start.current = null
          setOffset(0)
        }}
        onPointerCancel={() => {
          start.current = null
          setOffset(0)
        }}
        style={
          offset
            ? { transform: `translateX(${offset}px)`, opacity: 1 - Math.min(offset / 200, 0.7) }
            : undefined
        }
        className={cn(
          'flex w-full animate-toast-in touch-pan-y items-start gap-3 rounded-xl p-4 pr-3 shadow-lg ring-1',
          destructive
            ? 'bg-red-600 text-white ring-red-700 dark:bg-red-700'
            : 'bg-white text-slate-900 ring-slate-900/10 dark:bg-slate-800 dark:text-slate-100 dark:ring-white/10',
        )}
      >
        <div className="mt-0.5 shrink-0">{ICONS[toast.variant]}</div>
        <div className="min-w-0 flex-1">
          <p className="text-sm font-semibold">{toast.title}</p>
          {toast.description && (
            <p
              className={cn(
                'mt-1 text-sm break-words',
                destructive ? 'text-red-50' : 'text-slate-600 dark:text-slate-300',
              )}
            >
              {toast.description}
            </p>
          )}
        </div>
        <button
          type="button"
          onClick={() => dismissToast(toast.id)}
          className={cn(
            'shrink-0 rounded-md p-1',
            destructive
              ? 'text-red-100 hover:bg-red-500 hover:text-white'
              : 'text-slate-400 hover:bg-slate-100 hover:text-slate-600 dark:hover:bg-slate-700',
          )}
        >
          <span className="sr-only">Close</span>
          <XMarkIcon className="size-4" aria-hidden="true" />
        </button>
      </div>
    </li>
  )
}
