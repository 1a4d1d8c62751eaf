import {
  CheckCircleIcon,
  ExclamationTriangleIcon,
  InformationCircleIcon,
  XMarkIcon,
} from '@heroicons/react/20/solid'
import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import {
  TOAST_HOTKEY,
  TOAST_MAX_WIDTH_PX,
  TOAST_SWIPE_THRESHOLD_PX,
} from '../../../../shared/constants.ts'
import { cn } from '../ui/cn.ts'
import { dismissToast, getToasts, subscribeToasts, type Toast } from './store.ts'

/**
 * Where toasts show: bottom right (bottom on a phone), at most 420px wide. F8
 * moves focus here; a toast stays while hovered or focused, closes after its
 * time, with its button, with Escape, or with a swipe to the right.
 */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts)
  const region = useRef<HTMLOListElement>(null)

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
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[100] flex justify-center p-4 sm:justify-end"
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
