import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react'
import { Button } from '../../components/ui/button.tsx'
import { timeAgo } from '../../lib/format.ts'
import { useSignedIn } from '../../lib/session.tsx'
import { useRejectedChanges, useSyncStatus } from '../../sync/engine/react.ts'
import { signInAgainHref } from './sign-in-again.ts'
import {
  SYNC_ROOT_CLASS,
  SyncButtonContent,
  type SyncLook,
  syncButtonClass,
  syncButtonLabel,
} from './sync-status-button.tsx'

/**
 * The sync status in the bar: offline, changes waiting to be sent, changes
 * the server refused. Opens a panel with the details and the refused list
 * ("changes that could not be saved", each with the server's reason).
 * The bar reads the status (sync-status-button.tsx) and hands it in.
 */
export function SyncStatusButton(props: { look: SyncLook }) {
  const { look } = props
  return (
    <Popover className={SYNC_ROOT_CLASS}>
      <PopoverButton className={syncButtonClass(look)} aria-label={syncButtonLabel(look)}>
        <SyncButtonContent look={look} />
      </PopoverButton>
      <PopoverPanel
        anchor="bottom end"
        transition
        className="z-50 w-[min(22rem,calc(100vw-2rem))] rounded-xl bg-white p-4 shadow-lg ring-1 ring-slate-900/10 [--anchor-gap:8px] transition duration-100 data-closed:opacity-0 dark:bg-slate-900 dark:ring-white/10"
      >
        <SyncDetails />
      </PopoverPanel>
    </Popover>
  )
}

function SyncDetails() {
  const { engine } = useSignedIn()
  const status = useSyncStatus()
  const rejected = useRejectedChanges() ?? []
  return (
    <div className="space-y-3 text-sm">
      <h2 className="font-semibold text-slate-900 dark:text-white">Sync</h2>
      <ul className="space-y-1 text-slate-600 dark:text-slate-300">
        <li>
          {status.online
            ? 'Online'
            : "Offline: your changes are kept on this device and sent when you're back online."}
        </li>
        <li>
          {status.pendingCount === 0
            ? 'No changes waiting to be sent.'
            : `${status.pendingCount} ${status.pendingCount === 1 ? 'change' : 'changes'} waiting to be sent.`}
        </li>
        <li>
          {status.lastSyncedAt ? `Last synced ${timeAgo(status.lastSyncedAt)}.` : 'Not synced yet.'}
        </li>
      </ul>
      {status.needsSignIn && (
        <p className="rounded-lg bg-amber-50 p-3 text-amber-900 dark:bg-amber-950/60 dark:text-amber-200">
          Your session has ended.{' '}
          <a className="font-semibold underline" href={signInAgainHref()}>
            Sign in again
          </a>{' '}
          to send your changes.
        </p>
      )}
      {status.online && !status.needsSignIn && status.pendingCount > 0 && (
        <Button size="sm" variant="secondary" onClick={() => void engine.flush()}>
          Send now
        </Button>
      )}
      {rejected.length > 0 && (
        <div className="border-t border-slate-200 pt-3 dark:border-slate-800">
          <h3 className="font-semibold text-slate-900 dark:text-white">
            Changes that could not be saved
          </h3>
          <ul className="mt-2 max-h-60 space-y-2 overflow-y-auto">
            {rejected.map((r) => (
              <li key={r.id} className="rounded-lg bg-red-50 p-3 dark:bg-red-950/50">
                <p className="font-medium text-red-900 dark:text-red-200">{r.label}</p>
                <p className="mt-0.5 text-red-800 dark:text-red-300">{r.detail}</p>
                <button
                  type="button"
                  className="mt-1 text-xs font-semibold text-red-700 underline dark:text-red-300"
                  onClick={() => void engine.dismissRejected(r.id)}
                >
                  Dismiss
                </button>
              </li>
            ))}
          </ul>
          {rejected.length > 1 && (
            <Button
              size="sm"
              variant="ghost"
              className="mt-2"
              onClick={() => void engine.dismissRejected()}
            >
              Dismiss all
            </Button>
          )}
        </div>
      )}
    </div>
  )
}
