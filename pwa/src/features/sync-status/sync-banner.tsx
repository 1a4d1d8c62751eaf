import { ExclamationTriangleIcon, SignalSlashIcon } from '@heroicons/react/20/solid'
import { useSyncStatus } from '../../sync/engine/react.ts'
import { signInAgainHref } from './sign-in-again.ts'

/** A strip under the bar while offline, or when the session ended with changes waiting. */
export function SyncBanner() {
  const { online, needsSignIn, pendingCount } = useSyncStatus()
  if (needsSignIn) {
    return (
      <div
        role="alert"
        className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-center text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950/60 dark:text-amber-200"
      >
        <ExclamationTriangleIcon className="mr-1.5 inline size-4 align-[-2px]" aria-hidden="true" />
        Your session has ended
        {pendingCount
          ? ` and ${pendingCount} ${pendingCount === 1 ? 'change is' : 'changes are'} waiting`
          : ''}
        .{' '}
        <a href={signInAgainHref()} className="font-semibold underline">
          Sign in again
        </a>
      </div>
    )
  }
  if (!online) {
    return (
      <div
        role="status"
        className="border-b border-slate-200 bg-slate-100 px-4 py-2 text-center text-sm text-slate-700 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-300"
      >
        <SignalSlashIcon className="mr-1.5 inline size-4 align-[-2px]" aria-hidden="true" />
        You're offline. You can keep working: changes are saved on this device and sent when you
        reconnect.
      </div>
    )
  }
  return null
}
