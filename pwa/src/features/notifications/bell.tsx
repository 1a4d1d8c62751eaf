import { Popover, PopoverButton, PopoverPanel, useClose } from '@headlessui/react'
import { BellIcon } from '@heroicons/react/24/outline'
import { useEffect, useRef } from 'react'
import { Link } from 'react-router-dom'
import { cn } from '../../components/ui/cn.ts'
import { formatDateTime } from '../../lib/format.ts'
import type { SyncNotification } from '../../sync/engine/db.ts'
import { useMutations, useSyncedTable } from '../../sync/engine/react.ts'

/**
 * The notifications bell (spec section 2): a badge with the unread count, a
 * popover with a fixed-height scrolling list, read items dimmed; opening it
 * marks every unread notification read, each on its own.
 */
export function NotificationBell() {
  const notifications = useSyncedTable('notifications') ?? []
  const unread = notifications.filter((n) => !n.read).length
  return (
    <Popover className="relative">
      <PopoverButton className="relative rounded-full p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900 data-open:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white dark:data-open:bg-slate-800">
        <span className="sr-only">
          {unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        </span>
        <BellIcon className="size-6" aria-hidden="true" />
        {unread > 0 && (
          <span
            aria-hidden="true"
            data-testid="unread-badge"
            className="absolute top-0.5 right-0.5 flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-red-600 px-1 text-[0.65rem] leading-none font-bold text-white ring-2 ring-white dark:ring-slate-900"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        )}
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

function NotificationList(props: { notifications: SyncNotification[] }) {
  const mutate = useMutations()
  const close = useClose()
  const marked = useRef(false)

  // Mounted when the popover opens: every unread one is marked read, one call each.
  useEffect(() => {
    if (marked.current) return
    marked.current = true
    for (const n of props.notifications) {
      if (!n.read) void mutate.markNotificationRead(n.id).catch(() => {})
    }
  }, [props.notifications, mutate])

  return (
    <div>
      <h2 className="border-b border-slate-200 px-4 py-3 text-sm font-semibold text-slate-900 dark:border-slate-800 dark:text-white">
        Notifications
      </h2>
      {/* Focusable: a scrolling list is read with the keyboard too, and the panel then
          always holds the next stop after the bell (else Headless UI adds sentinels). */}
      <section
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
            {props.notifications.map((n) => {
              const body = (
                <>
                  <p
                    className={cn(
                      'flex items-start gap-2 text-sm',
                      n.read
                        ? 'text-slate-600 dark:text-slate-400'
                        : 'font-semibold text-slate-900 dark:text-white',
                    )}
                  >
                    {!n.read && (
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
                      n.read
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
                !n.read && 'bg-brand-50/60 dark:bg-brand-950/40',
              )
              return (
                <li key={n.id} data-read={n.read}>
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
                </li>
              )
            })}
          </ul>
        )}
      </section>
    </div>
  )
}
