import { Popover, PopoverButton, PopoverPanel, useClose } from '@headlessui/react'
import { Bars3Icon, XMarkIcon } from '@heroicons/react/24/outline'
import { Link, NavLink } from 'react-router-dom'
import { canAdminister } from '../../../shared/user.ts'
import { Logo } from '../components/logo.tsx'
import { cn } from '../components/ui/cn.ts'
import { NotificationBell } from '../features/notifications/bell.tsx'
import { SyncStatusButton } from '../features/sync-status/sync-status.tsx'
import { paths } from '../lib/paths.ts'
import { useCurrentUser } from '../lib/use-current-user.ts'
import { UserMenu } from './user-menu.tsx'

type NavItem = { to: string; label: string }

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

/** The top bar (spec section 2): brand, links, bell, user menu; on a phone the links fold into a menu. */
export function NavBar() {
  const user = useCurrentUser()
  const items = navItems(canAdminister(user))
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75 dark:border-slate-800 dark:bg-slate-900/90 dark:supports-[backdrop-filter]:bg-slate-900/75">
      <nav
        aria-label="Main"
        className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4 sm:px-6 lg:px-8"
      >
        <MobileMenu items={items} />
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
          <SyncStatusButton />
          <NotificationBell />
          <UserMenu user={user} />
        </div>
      </nav>
    </header>
  )
}

function MobileMenu(props: { items: NavItem[] }) {
  return (
    <Popover className="lg:hidden">
      {({ open }) => (
        <>
          <PopoverButton className="-ml-2 rounded-md p-2 text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800">
            <span className="sr-only">{open ? 'Close menu' : 'Open menu'}</span>
            {open ? (
              <XMarkIcon className="size-6" aria-hidden="true" />
            ) : (
              <Bars3Icon className="size-6" aria-hidden="true" />
            )}
          </PopoverButton>
          <PopoverPanel
            transition
            focus
            className="absolute inset-x-0 top-16 z-40 border-b border-slate-200 bg-white px-4 py-3 shadow-lg transition data-closed:-translate-y-1 data-closed:opacity-0 dark:border-slate-800 dark:bg-slate-900"
          >
            <MobileLinks items={props.items} />
          </PopoverPanel>
        </>
      )}
    </Popover>
  )
}

function MobileLinks(props: { items: NavItem[] }) {
  const close = useClose()
  return (
    <ul className="space-y-1">
      {props.items.map((item) => (
        <li key={item.to}>
          <NavLink
            to={item.to}
            end
            onClick={() => close()}
            className={({ isActive }) =>
              cn(
                'block rounded-lg px-3 py-2.5 text-base font-medium',
                isActive
                  ? 'bg-brand-50 text-brand-700 dark:bg-brand-900/50 dark:text-brand-200'
                  : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800',
              )
            }
          >
            {item.label}
          </NavLink>
        </li>
      ))}
    </ul>
  )
}
