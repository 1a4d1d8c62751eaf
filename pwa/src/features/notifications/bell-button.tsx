import { BellIcon } from '@heroicons/react/24/outline'
import type { SyncNotification } from '../../sync/engine/db.ts'
import { useSyncedCoalesced } from '../../sync/engine/react.ts'
import { readTable } from '../../sync/engine/view.ts'

// The bell's button, apart from its popover: the bar draws it before the popover's code has
// come (app/deferred-widget.tsx), and the bell draws it once it has.

const NOTIFICATION_TABLES = ['notifications', 'overlay', 'rejected'] as const
const readNotifications = (db: Parameters<typeof readTable>[0]) => readTable(db, 'notifications')

/** The notifications on this device, with the changes not yet sent applied. */
export function useNotifications(): SyncNotification[] {
  // Beside the screen's own content: read again once the page is idle.
  return useSyncedCoalesced(readNotifications, NOTIFICATION_TABLES, [], { background: true }) ?? []
}

export const unreadOf = (notifications: readonly SyncNotification[]): number =>
  notifications.filter((n) => !n.read).length

/** The class of the bell's root (a Popover's div), which its panel hangs from. */
export const BELL_ROOT_CLASS = 'relative'

export const BELL_BUTTON_CLASS =
  'relative rounded-full p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900 data-open:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white dark:data-open:bg-slate-800'

/** What the bell's button shows: the icon, the unread badge, and its name for a screen reader. */
export function BellButtonContent(props: { unread: number }) {
  const { unread } = props
  return (
    <>
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
    </>
  )
}
