import { Popover, PopoverButton, PopoverPanel, useClose } from '@headlessui/react'
import { useCallback, useEffect, useRef, useState } from 'react'
import { Link } from 'react-router-dom'
import { isSnoozable } from '../../../../shared/notification.ts'
import { cn } from '../../components/ui/cn.ts'
import { formatDateTime } from '../../lib/format.ts'
import type { SyncNotification } from '../../sync/engine/db.ts'
import { useMutations } from '../../sync/engine/react.ts'
import { BELL_BUTTON_CLASS, BELL_ROOT_CLASS, BellButtonContent, unreadOf } from './bell-button.tsx'
import { ReminderActions } from './reminder-actions.tsx'

/**
 * The notifications bell (spec section 2): a badge with the unread count, a
 * popover with a fixed-height scrolling list, read items dimmed. An unread
 * notification is marked read once it has been in view (or with "Mark all as
 * read"), and stays marked new until the panel closes, so nothing new is lost
 * from sight by opening the bell. The count follows the synced rows: every
 * tab and device shows the same. A person with thousands of notifications
 * sees the newest hundred, and older ones a hundred at a time on request.
 * A reminder can be put off until tomorrow and a check-in answered in place.
 * The bar reads the notifications (bell-button.tsx) and hands them in.
 */
export function NotificationBell(props: { notifications: SyncNotification[] }) {
  const { notifications } = props
  const unread = unreadOf(notifications)
  return (
    <Popover className={BELL_ROOT_CLASS}>
      <PopoverButton className={BELL_BUTTON_CLASS}>
        <BellButtonContent unread={unread} />
      </PopoverButton>
      {/* Positioned here rather than anchored: an anchored panel is portalled, and a
          portalled panel gets Headless UI's focus sentinels (focusable buttons marked
          aria-hidden, which axe reports as aria-hidden-focus). On a phone it spans the
          screen under the bar; from sm up it hangs from the bell. */}
      <PopoverPanel
        transition
        className="fixed inset-x-2 top-16 z-50 overflow-hidden rounded-xl bg-white shadow-lg ring-1 ring-slate-900/10 transition duration-100 data-closed:opacity-0 sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:mt-2 sm:w-96 dark:bg-slate-900 dark:ring-white/10"
      >
        <NotificationList notifications={notifications} />
      </PopoverPanel>
    </Popover>
  )
}

/** Whether a notification has follow-through buttons or their outcome (issue 18). */
const hasActions = (n: SyncNotification) => n.kind === 'check_in' || isSnoozable(n.kind)

/** How many notifications the panel lists at first, and adds with "Show older". */
const PAGE = 100

/** How long half of an unread notification must be in view to count as seen. */
const SEEN_AFTER_MS = 600

function NotificationList(props: { notifications: SyncNotification[] }) {
  const mutate = useMutations()
  const close = useClose()
  const list = useRef<HTMLElement>(null)
  // What was unread when the panel opened stays marked new until it closes, even once read.
  const [fresh] = useState(
    () => new Set(props.notifications.filter((n) => !n.read).map((n) => n.id)),
  )
  const isNew = (n: SyncNotification) => !n.read || fresh.has(n.id)
  const sent = useRef(new Set<string>())
  const markRead = useCallback(
    (id: string) => {
      if (sent.current.has(id)) return
      sent.current.add(id)
      void mutate.markNotificationRead(id).catch(() => sent.current.delete(id))
    },
    [mutate],
  )
  const unread = props.notifications.filter((n) => !n.read)
  const [limit, setLimit] = useState(PAGE)
  const listed = props.notifications.slice(0, limit)

  // An unread notification is read once it has been in view (half of it, for a moment).
  // biome-ignore lint/correctness/useExhaustiveDependencies: observes the list's items again when they change
  useEffect(() => {
    const root = list.current
    if (!root) return
    const timers = new Map<Element, ReturnType<typeof setTimeout>>()
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const id = (entry.target as HTMLElement).dataset.unreadId
          if (!id) continue
          if (entry.isIntersecting) {
            timers.set(
              entry.target,
              setTimeout(() => markRead(id), SEEN_AFTER_MS),
            )
          } else {
            clearTimeout(timers.get(entry.target))
            timers.delete(entry.target)
          }
        }
      },
      { root, threshold: 0.5 },
    )
    for (const el of root.querySelectorAll('[data-unread-id]')) observer.observe(el)
    return () => {
      observer.disconnect()
      for (const timer of timers.values()) clearTimeout(timer)
    }
  }, [markRead, props.notifications, limit])

  return (
    <div>
      <div className="flex items-center justify-between gap-3 border-b border-slate-200 px-4 py-2 dark:border-slate-800">
        <h2 className="py-1 text-sm font-semibold text-slate-900 dark:text-white">Notifications</h2>
        {unread.length > 0 && (
          <button
            type="button"
            onClick={() => {
              for (const n of unread) markRead(n.id)
              // The button goes once nothing is unread: keep the focus in the panel.
              list.current?.focus()
            }}
            className="rounded-md px-2 py-1 text-xs font-medium text-brand-700 hover:bg-brand-50 dark:text-brand-300 dark:hover:bg-brand-950/60"
          >
            Mark all as read
          </button>
        )}
      </div>
      {/* Focusable: a scrolling list is read with the keyboard too, and the panel then
          always holds the next stop after the bell (else Headless UI adds sentinels). */}
      <section
        ref={list}
        className="h-80 overflow-y-auto overscroll-contain"
        aria-label="Notification list"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
        tabIndex={0}
      >
        {props.notifications.length === 0 ? (
          <p className="flex h-full items-center justify-center text-sm text-slate-500 dark:text-slate-400">
            No notifications
          </p>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {listed.map((n) => {
              const body = (
                <>
                  <p
                    className={cn(
                      'flex items-start gap-2 text-sm',
                      !isNew(n)
                        ? 'text-slate-600 dark:text-slate-400'
                        : 'font-semibold text-slate-900 dark:text-white',
                    )}
                  >
                    {isNew(n) && (
                      <span
                        className="mt-1.5 size-2 shrink-0 rounded-full bg-brand-600"
                        aria-hidden="true"
                      />
                    )}
                    {n.title}
                  </p>
                  <p
                    className={cn(
                      'mt-0.5 text-sm',
                      !isNew(n)
                        ? 'text-slate-500 dark:text-slate-400'
                        : 'text-slate-700 dark:text-slate-200',
                    )}
                  >
                    {n.message}
                  </p>
                  <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
                    <time dateTime={n.createdAt}>{formatDateTime(n.createdAt)}</time>
                  </p>
                </>
              )
              const classes = cn(
                'block px-4 py-3',
                isNew(n) && 'bg-brand-50/60 dark:bg-brand-950/40',
              )
              // A reminder's buttons sit under its link (a button may not be inside one).
              const actions = hasActions(n) && (
                <div
                  className={cn(
                    'px-4 pb-3 -mt-2',
                    isNew(n) && 'bg-brand-50/60 dark:bg-brand-950/40',
                  )}
                >
                  <ReminderActions notification={n} />
                </div>
              )
              return (
                <li
                  key={n.id}
                  data-read={n.read}
                  data-new={isNew(n)}
                  data-kind={n.kind}
                  data-unread-id={n.read ? undefined : n.id}
                >
                  {n.link ? (
                    <Link
                      to={n.link}
                      onClick={() => close()}
                      className={cn(classes, 'hover:bg-slate-50 dark:hover:bg-slate-800/60')}
                    >
                      {body}
                    </Link>
                  ) : (
                    <div className={classes}>{body}</div>
                  )}
                  {actions}
                </li>
              )
            })}
          </ul>
        )}
        {props.notifications.length > limit && (
          <div className="border-t border-slate-100 px-4 py-3 text-center dark:border-slate-800">
            <button
              type="button"
              onClick={() => setLimit((n) => n + PAGE)}
              className="rounded-md px-2 py-1 text-sm font-medium text-brand-700 hover:bg-brand-50 dark:text-brand-300 dark:hover:bg-brand-950/60"
            >
              Show older ({props.notifications.length - limit} more)
            </button>
          </div>
        )}
      </section>
    </div>
  )
}
