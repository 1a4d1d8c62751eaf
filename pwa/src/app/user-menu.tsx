import { Menu, MenuButton, MenuItem, MenuItems, MenuSeparator } from '@headlessui/react'
import {
  ArrowRightStartOnRectangleIcon,
  BellAlertIcon,
  UserCircleIcon,
} from '@heroicons/react/20/solid'
import { useState } from 'react'
import { Link } from 'react-router-dom'
import type { User } from '../../../shared/user.ts'
import { Button } from '../components/ui/button.tsx'
import { Modal, ModalActions } from '../components/ui/dialog.tsx'
import { InstallMenuItem, IosInstallHint } from '../features/install/install-menu-item.tsx'
import { paths } from '../lib/paths.ts'
import { forgetStoredUser, useSignedIn } from '../lib/session.tsx'
import { LOGOUT_PATH, signOut } from '../sync/engine/session.ts'
import { USER_BUTTON_CLASS, UserButtonContent } from './user-button.tsx'

const ITEM =
  'flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm text-slate-700 data-focus:bg-slate-100 data-focus:text-slate-900 dark:text-slate-200 dark:data-focus:bg-slate-800 dark:data-focus:text-white'

/**
 * The user menu (spec section 2): the username; Profile, Notification Settings, Logout.
 * The iPhone's install how-to is drawn here: only the menu's Install item opens it.
 */
export function UserMenu(props: { user: User }) {
  const { engine } = useSignedIn()
  const [unsent, setUnsent] = useState<number | null>(null)
  const [leaving, setLeaving] = useState(false)

  async function logout(discardUnsent = false) {
    setLeaving(true)
    const result = await signOut(engine, { discardUnsent })
    if (!result.signedOut) {
      setLeaving(false)
      setUnsent(result.unsent)
      return
    }
    forgetStoredUser()
    window.location.assign(LOGOUT_PATH)
  }

  return (
    <>
      <Menu>
        <MenuButton className={USER_BUTTON_CLASS}>
          <UserButtonContent user={props.user} />
        </MenuButton>
        <MenuItems
          anchor="bottom end"
          transition
          className="z-50 w-60 rounded-xl bg-white p-1.5 shadow-lg ring-1 ring-slate-900/10 [--anchor-gap:8px] focus:outline-none data-closed:scale-95 data-closed:opacity-0 transition duration-100 dark:bg-slate-900 dark:ring-white/10"
        >
          <div className="px-3 py-2">
            <p className="truncate text-sm font-medium text-slate-900 dark:text-white">
              {props.user.full_name}
            </p>
            <p className="truncate text-xs text-slate-500 dark:text-slate-400">
              @{props.user.username}
            </p>
          </div>
          <MenuSeparator className="my-1 h-px bg-slate-200 dark:bg-slate-800" />
          <MenuItem>
            <Link to={paths.profile(props.user.username)} className={ITEM}>
              <UserCircleIcon className="size-5 text-slate-400" aria-hidden="true" />
              Profile
            </Link>
          </MenuItem>
          <MenuItem>
            <Link to={paths.notificationSettings} className={ITEM}>
              <BellAlertIcon className="size-5 text-slate-400" aria-hidden="true" />
              Notification Settings
            </Link>
          </MenuItem>
          <InstallMenuItem className={ITEM} />
          <MenuSeparator className="my-1 h-px bg-slate-200 dark:bg-slate-800" />
          <MenuItem>
            <a
              href={LOGOUT_PATH}
              className={ITEM}
              onClick={(event) => {
                event.preventDefault()
                void logout()
              }}
            >
              <ArrowRightStartOnRectangleIcon
                className="size-5 text-slate-400"
                aria-hidden="true"
              />
              Logout
            </a>
          </MenuItem>
        </MenuItems>
      </Menu>
      <Modal
        open={unsent !== null}
        onClose={() => setUnsent(null)}
        title="Sign out with unsaved changes?"
        description={`${unsent === 1 ? '1 change has' : `${unsent} changes have`} not reached the server yet. If you sign out now, ${unsent === 1 ? 'it is' : 'they are'} lost. Go back online and wait for them to be sent to keep ${unsent === 1 ? 'it' : 'them'}.`}
      >
        <ModalActions>
          <Button variant="secondary" onClick={() => setUnsent(null)}>
            Stay signed in
          </Button>
          <Button variant="danger" busy={leaving} onClick={() => void logout(true)}>
            Sign out and discard
          </Button>
        </ModalActions>
      </Modal>
      <IosInstallHint />
    </>
  )
}
