import { ArrowPathIcon } from '@heroicons/react/20/solid'
import { useState, useSyncExternalStore } from 'react'
import { Button } from '../../components/ui/button.tsx'
import type { StatusStore } from '../../sync/engine/status.ts'

const NO_STATUS = { pendingCount: 0, online: true }
const noSubscription = () => () => {}

/**
 * "A new version is available" with Reload, until the user reloads or puts it
 * off. Reload waits while changes are still being sent: reloading then could
 * drop what the user is in the middle of, so the button stays disabled and
 * says why until the sync status shows nothing pending.
 *
 * Rendered while a new version waits; `onReload` switches to it and reloads.
 * `status` is the signed-in engine's (absent when signed out: nothing to lose).
 */
export function UpdatePrompt(props: { status?: StatusStore | undefined; onReload: () => void }) {
  const { status } = props
  const { pendingCount, online } = useSyncExternalStore(
    status?.subscribe ?? noSubscription,
    status?.get ?? (() => NO_STATUS),
    status?.get ?? (() => NO_STATUS),
  )
  const [dismissed, setDismissed] = useState(false)
  const [reloading, setReloading] = useState(false)
  if (dismissed) return null

  const unsent = pendingCount > 0
  return (
    <section
      aria-label="App update"
      // Of the moment: a return visit's copy of the screen leaves it out (lib/snapshot.ts).
      data-no-snapshot=""
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[90] flex justify-center p-4 sm:justify-start"
    >
      <div
        role="status"
        className="pointer-events-auto flex w-full max-w-md items-start gap-3 rounded-xl bg-white p-4 shadow-lg ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700"
      >
        <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 dark:bg-brand-500/15">
          <ArrowPathIcon className="size-5 text-brand-600 dark:text-brand-300" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-sm font-semibold text-slate-900 dark:text-white">
            A new version is available
          </p>
          <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-300">
            {!unsent
              ? 'Reload to get the latest improvements. It only takes a moment.'
              : online
                ? 'Reload when your changes are saved. They are being sent now.'
                : "Reload when your changes are saved. They are sent as soon as you're back online."}
          </p>
          <div className="mt-3 flex gap-2">
            <Button
              size="sm"
              disabled={unsent}
              busy={reloading}
              onClick={() => {
                setReloading(true)
                props.onReload()
              }}
            >
              Reload
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setDismissed(true)}>
              Not now
            </Button>
          </div>
        </div>
      </div>
    </section>
  )
}
