import { Popover, PopoverButton, PopoverPanel, useClose } from '@headlessui/react'
import { NavLink } from 'react-router-dom'
import { cn } from '../components/ui/cn.ts'
import {
  MENU_BUTTON_CLASS,
  MENU_ROOT_CLASS,
  MenuButtonContent,
  type NavItem,
} from './mobile-menu-button.tsx'

/** The bar's links on a phone, folded into a menu under the bar. */
export function MobileMenu(props: { items: NavItem[] }) {
  return (
    <Popover className={MENU_ROOT_CLASS}>
      {({ open }) => (
        <>
          <PopoverButton className={MENU_BUTTON_CLASS}>
            <MenuButtonContent open={open} />
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
