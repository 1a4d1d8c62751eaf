import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react'
import {
  CheckCircleIcon,
  CloudArrowUpIcon,
  ExclamationCircleIcon,
  SignalSlashIcon,
} from '@heroicons/react/20/solid'
import { Button } from '../../components/ui/button.tsx'
import { cn } from '../../components/ui/cn.ts'
import { timeAgo } from '../../lib/format.ts'
import { useSignedIn } from '../../lib/session.tsx'
import { useRejectedChanges, useSyncStatus } from '../../sync/engine/react.ts'
import { signInAgainHref } from './sign-in-again.ts'

/**
 * The sync status in the bar: offline, changes waiting to be sent, changes
 * the server refused. Opens a panel with the details and the refused list
 * ("changes that could not be saved", each with the server's reason).
 */
export function SyncStatusButton() {
  const status = useSyncStatus()
  const { pendingCount, rejectedCount, online, needsSignIn } = status

  let icon = <CheckCircleIcon className="size-5 text-emerald-500" aria-hidden="true" />
  let label = 'All changes saved'
  let short: string | null = null
  let tone = 'text-slate-500 dark:text-slate-400'
  if (rejectedCount > 0) {
    icon = <ExclamationCircleIcon className="size-5 text-red-500" aria-hidden="true" />
    label = `${rejectedCount} ${rejectedCount === 1 ? 'change' : 'changes'} could not be saved`
    short = String(rejectedCount)
    tone = 'text-red-700 dark:text-red-300'
  } else if (!online) {
    icon = <SignalSlashIcon className="size-5 text-amber-500" aria-hidden="true" />
    label = pendingCount ? `Offline, ${pendingCount} waiting to sync` : 'Offline'
    short = pendingCount ? String(pendingCount) : 'Offline'
    tone = 'text-amber-700 dark:text-amber-300'
  } else if (pendingCount > 0 || needsSignIn) {
    icon = <CloudArrowUpIcon className="size-5 text-brand-500" aria-hidden="true" />
    label = `${pendingCount} ${pendingCount === 1 ? 'change' : 'changes'} waiting to sync`
    short = String(pendingCount)
    tone = 'text-brand-700 dark:text-brand-300'
  }

  return (
    <Popover className="relative">
      <PopoverButton
        className={cn(
          'relative flex h-9 items-center gap-1.5 rounded-full px-2 text-xs font-semibold hover:bg-slate-100 data-open:bg-slate-100 dark:hover:bg-slate-800 dark:data-open:bg-slate-800',
          tone,
        )}
        aria-label={`Sync status: ${label}`}
      >
        {icon}
        {short === 'Offline' && (
          // "Offline" in words only where the bar has room; the icon says it on a phone.
          <span aria-hidden="true" className="hidden sm:inline">
            {short}
          </span>
        )}
        {short && short !== 'Offline' && (
          // A count is a badge on the icon, like the bell's: it takes no room in the bar,
          // so a change waiting to sync never pushes the user menu past a phone's edge.
          <span
            aria-hidden="true"
            className="absolute top-0 right-0 min-w-4 rounded-full bg-brand-600 px-1 text-center text-[10px] leading-4 text-white dark:bg-brand-500"
          >
            {short}
          </span>
        )}
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
