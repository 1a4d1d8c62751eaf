import {
  CheckCircleIcon,
  CloudArrowUpIcon,
  ExclamationCircleIcon,
  SignalSlashIcon,
} from '@heroicons/react/20/solid'
import type { ReactNode } from 'react'
import { cn } from '../../components/ui/cn.ts'
import { useSyncStatus } from '../../sync/engine/react.ts'

// The sync status's button, apart from its panel: the bar draws it before the panel's code has
// come (app/deferred-widget.tsx), and the status draws it once it has.

export type SyncLook = { icon: ReactNode; label: string; short: string | null; tone: string }

/** What the button says: offline, changes waiting, changes refused, or all saved. */
export function useSyncLook(): SyncLook {
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
  return { icon, label, short, tone }
}

/** The class of the status's root (a Popover's div). */
export const SYNC_ROOT_CLASS = 'relative'

export const syncButtonClass = (look: SyncLook): string =>
  cn(
    'relative flex h-9 items-center gap-1.5 rounded-full px-2 text-xs font-semibold hover:bg-slate-100 data-open:bg-slate-100 dark:hover:bg-slate-800 dark:data-open:bg-slate-800',
    look.tone,
  )

export const syncButtonLabel = (look: SyncLook): string => `Sync status: ${look.label}`

export function SyncButtonContent(props: { look: SyncLook }) {
  const { icon, short } = props.look
  return (
    <>
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
    </>
  )
}
