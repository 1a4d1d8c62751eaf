import { Bars3Icon, XMarkIcon } from '@heroicons/react/24/outline'

// The phone menu's button, apart from the menu: the bar draws it before the menu's code has
// come (deferred-widget.tsx), and the menu draws it once it has.

export type NavItem = { to: string; label: string }

/** The class of the menu's root (a Popover's div): on a phone and a tablet only. */
export const MENU_ROOT_CLASS = 'lg:hidden'

export const MENU_BUTTON_CLASS =
  '-ml-2 rounded-md p-2 text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'

export function MenuButtonContent(props: { open: boolean }) {
  return (
    <>
      <span className="sr-only">{props.open ? 'Close menu' : 'Open menu'}</span>
      {props.open ? (
        <XMarkIcon className="size-6" aria-hidden="true" />
      ) : (
        <Bars3Icon className="size-6" aria-hidden="true" />
      )}
    </>
  )
}
