import { ChevronDownIcon } from '@heroicons/react/20/solid'
import type { User } from '../../../shared/user.ts'
import { Avatar } from '../components/ui/avatar.tsx'

// The user menu's button, apart from the menu: the bar draws it before the menu's code has
// come (deferred-widget.tsx), and the menu draws it once it has.

export const USER_BUTTON_CLASS =
  'flex items-center gap-2 rounded-full py-1 pr-2 pl-1 text-sm font-medium text-slate-700 hover:bg-slate-100 data-open:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800 dark:data-open:bg-slate-800'

/** The avatar and the username (on a phone, for a screen reader only). */
export function UserButtonContent(props: { user: User }) {
  return (
    <>
      <Avatar user={props.user} size="sm" />
      <span className="hidden max-w-32 truncate sm:inline">{props.user.username}</span>
      <span className="sr-only sm:hidden">{props.user.username}</span>
      <ChevronDownIcon className="size-4 text-slate-400" aria-hidden="true" />
    </>
  )
}
