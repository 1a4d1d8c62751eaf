import { Description, Field, Label, Switch } from '@headlessui/react'
import { useState } from 'react'
import type { User } from '../../../../shared/user.ts'
import { checkToggleAdmin } from '../../../../shared/user.ts'
import { cn } from '../../components/ui/cn.ts'
import { useChange } from '../../lib/use-change.ts'
import type { SyncUser } from '../../sync/engine/db.ts'
import { useMutations } from '../../sync/engine/react.ts'

/**
 * The "Admin" switch of one user (Headless UI Switch, labelled "Admin", its
 * description naming the user). An administrator cannot switch themselves.
 */
export function AdminSwitch(props: { user: SyncUser; me: User }) {
  const { user, me } = props
  const change = useChange()
  const mutate = useMutations()
  const [busy, setBusy] = useState(false)
  const allowed = checkToggleAdmin(me, user.id)

  const toggle = async () => {
    setBusy(true)
    try {
      await change(() => mutate.toggleAdmin(user.id), {
        success: 'User admin status updated successfully',
      })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Field disabled={!allowed.ok || busy} className="flex items-center justify-between gap-4">
      <div className="min-w-0">
        <Label className="text-sm font-medium text-slate-900 data-disabled:text-slate-600 dark:text-slate-100 dark:data-disabled:text-slate-400">
          Admin
        </Label>
        <Description className="text-xs text-slate-600 dark:text-slate-400">
          {allowed.ok
            ? `Administrator rights for ${user.username}`
            : "You can't change your own administrator status."}
        </Description>
      </div>
      <Switch
        checked={user.isAdmin}
        onChange={() => void toggle()}
        className={cn(
          'group relative inline-flex h-6 w-11 shrink-0 cursor-pointer rounded-full bg-slate-300 transition-colors data-checked:bg-brand-600 data-disabled:cursor-not-allowed data-disabled:opacity-60 data-focus:ring-2 data-focus:ring-brand-600 data-focus:ring-offset-2 dark:bg-slate-600 dark:data-checked:bg-brand-500 dark:data-focus:ring-offset-slate-900',
        )}
      >
        <span
          aria-hidden="true"
          className="pointer-events-none inline-block size-5 translate-x-0.5 translate-y-0.5 rounded-full bg-white shadow ring-0 transition-transform group-data-checked:translate-x-5.5"
        />
      </Switch>
    </Field>
  )
}
