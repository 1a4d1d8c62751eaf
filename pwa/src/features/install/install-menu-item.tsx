import { MenuItem } from '@headlessui/react'
import { ArrowDownTrayIcon } from '@heroicons/react/20/solid'
import { useSyncExternalStore } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { Modal, ModalActions } from '../../components/ui/dialog.tsx'
import {
  canPromptInstall,
  isIosBrowser,
  promptInstall,
  subscribeInstallPrompt,
} from './install-prompt.ts'

let hintOpen = false
const hintListeners = new Set<() => void>()
function setHintOpen(open: boolean): void {
  hintOpen = open
  for (const listener of hintListeners) listener()
}
function subscribeHint(listener: () => void): () => void {
  hintListeners.add(listener)
  return () => hintListeners.delete(listener)
}

/**
 * "Install app" in the user menu: the browser's own install dialog where it
 * offers one; on iOS a short how-to (IosInstallHint), since Safari installs
 * only by hand. Renders nothing where neither applies.
 */
export function InstallMenuItem(props: { className: string }) {
  const available = useSyncExternalStore(subscribeInstallPrompt, canPromptInstall, () => false)
  if (!available && !isIosBrowser()) return null
  return (
    <MenuItem>
      <button
        type="button"
        className={props.className}
        onClick={() => (available ? void promptInstall() : setHintOpen(true))}
      >
        <ArrowDownTrayIcon className="size-5 text-slate-400" aria-hidden="true" />
        Install app
      </button>
    </MenuItem>
  )
}

/** The iOS how-to; lives outside the menu, which closes when its item is chosen. */
export function IosInstallHint() {
  const open = useSyncExternalStore(
    subscribeHint,
    () => hintOpen,
    () => false,
  )
  return (
    <Modal
      open={open}
      onClose={() => setHintOpen(false)}
      title="Install Pairwise on your iPhone or iPad"
      description="Tap the Share button in Safari's toolbar, then choose Add to Home Screen. Pairwise then opens like an app, also without a connection."
    >
      <ModalActions>
        <Button onClick={() => setHintOpen(false)}>Got it</Button>
      </ModalActions>
    </Modal>
  )
}
