import { Link, NavLink } from 'react-router-dom'
import { canAdminister } from '../../../shared/user.ts'
import { Logo } from '../components/logo.tsx'
import { cn } from '../components/ui/cn.ts'
import {
  BELL_BUTTON_CLASS,
  BELL_ROOT_CLASS,
  BellButtonContent,
  unreadOf,
  useNotifications,
} from '../features/notifications/bell-button.tsx'
import {
  SYNC_ROOT_CLASS,
  SyncButtonContent,
  syncButtonClass,
  syncButtonLabel,
  useSyncLook,
} from '../features/sync-status/sync-status-button.tsx'
import { paths } from '../lib/paths.ts'
import { useCurrentUser } from '../lib/use-current-user.ts'
import { DeferredWidget } from './deferred-widget.tsx'
import {
  MENU_BUTTON_CLASS,
  MENU_ROOT_CLASS,
  MenuButtonContent,
  type NavItem,
} from './mobile-menu-button.tsx'
import { USER_BUTTON_CLASS, UserButtonContent } from './user-button.tsx'

function navItems(withAdminScreens: boolean): NavItem[] {
  const items: NavItem[] = [
    { to: paths.topics, label: 'Topics' },
    { to: paths.createTopic, label: 'Create Topic' },
    { to: paths.dashboard, label: 'Dashboard' },
  ]
  if (withAdminScreens) {
    items.push(
      { to: paths.adminTopics, label: 'Manage Topics' },
      { to: paths.adminUsers, label: 'Manage Users' },
      { to: paths.adminInsights, label: 'Insights' },
      { to: paths.adminSettings, label: 'Settings' },
    )
  }
  return items
}

/**
 * The top bar (spec section 2): brand, links, bell, user menu; on a phone the links fold into a
 * menu. The menus and popovers load their code when first reached for (DeferredWidget): until
 * then their buttons are drawn as they look closed, with the same counts and names.
 */
export function NavBar() {
  const user = useCurrentUser()
  const items = navItems(canAdminister(user))
  // The bar is opaque, without a backdrop blur: the blur was redrawn behind the bar on every
  // scrolled frame (with software compositing, 11.8 ms a frame of a fling at 10,000 topics;
  // without it 4.0 ms), and the list's frames dropped with it.
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <nav
        aria-label="Main"
        className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4 sm:px-6 lg:px-8"
      >
        <DeferredWidget
          wrapperClassName={MENU_ROOT_CLASS}
          button={{ className: MENU_BUTTON_CLASS, content: <MenuButtonContent open={false} /> }}
        >
          {(widgets) => <widgets.MobileMenu items={items} />}
        </DeferredWidget>
        <Link to={paths.home} className="mr-4 rounded-md">
          <Logo />
        </Link>
        <ul className="hidden items-center gap-1 lg:flex">
          {items.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end
                className={({ isActive }) =>
                  cn(
                    'rounded-md px-3 py-2 text-sm font-medium transition-colors',
                    isActive
                      ? 'bg-brand-50 text-brand-700 dark:bg-brand-900/50 dark:text-brand-200'
                      : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white',
                  )
                }
              >
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="ml-auto flex items-center gap-1 sm:gap-2">
          <SyncStatus />
          <Bell />
          <DeferredWidget
            button={{
              className: USER_BUTTON_CLASS,
              content: <UserButtonContent user={user} />,
              haspopup: 'menu',
            }}
          >
            {(widgets) => <widgets.UserMenu user={user} />}
          </DeferredWidget>
        </div>
      </nav>
    </header>
  )
}

function SyncStatus() {
  const look = useSyncLook()
  return (
    <DeferredWidget
      wrapperClassName={SYNC_ROOT_CLASS}
      button={{
        className: syncButtonClass(look),
        label: syncButtonLabel(look),
        content: <SyncButtonContent look={look} />,
      }}
    >
      {(widgets) => <widgets.SyncStatusButton look={look} />}
    </DeferredWidget>
  )
}

function Bell() {
  const notifications = useNotifications()
  const unread = unreadOf(notifications)
  return (
    <DeferredWidget
      wrapperClassName={BELL_ROOT_CLASS}
      button={{ className: BELL_BUTTON_CLASS, content: <BellButtonContent unread={unread} /> }}
    >
      {(widgets) => <widgets.NotificationBell notifications={notifications} />}
    </DeferredWidget>
  )
}
