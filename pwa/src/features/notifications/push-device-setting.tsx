import { Description, Field, Label, Switch } from '@headlessui/react'
import { BellAlertIcon, InformationCircleIcon, NoSymbolIcon } from '@heroicons/react/20/solid'
import { useEffect, useState } from 'react'
import { toastError, toastSuccess } from '../../components/toast/store.ts'
import { cn } from '../../components/ui/cn.ts'
import { Spinner } from '../../components/ui/spinner.tsx'
import { useSyncStatus } from '../../sync/engine/react.ts'
import {
  type PushDeviceState,
  readPushDeviceState,
  turnPushOff,
  turnPushOn,
} from './push-device.ts'

/**
 * "Push notifications on this device": a switch that asks the browser for
 * permission, subscribes this device and registers it with the server (and
 * undoes both). Explains instead when the browser cannot receive pushes or
 * the user has blocked notifications for the site. Needs a connection to
 * change, since the server must learn about the device.
 */
export function PushDeviceSetting() {
  const [state, setState] = useState<PushDeviceState | 'loading'>('loading')
  const [busy, setBusy] = useState(false)
  const { online } = useSyncStatus()

  useEffect(() => {
    let cancelled = false
    const refresh = () =>
      void readPushDeviceState()
        .then((next) => !cancelled && setState(next))
        .catch(() => !cancelled && setState('off'))
    refresh()
    // Permission changed in the browser's site settings while the app was in the background.
    const onVisible = () => document.visibilityState === 'visible' && refresh()
    document.addEventListener('visibilitychange', onVisible)
    return () => {
      cancelled = true
      document.removeEventListener('visibilitychange', onVisible)
    }
  }, [])

  const on = state === 'on'
  async function toggle(next: boolean) {
    setBusy(true)
    try {
      const result = await (next ? turnPushOn() : turnPushOff())
      setState(result)
      if (result === 'on') toastSuccess('Push notifications are on for this device')
      if (!next) toastSuccess('Push notifications are off for this device')
    } catch (error) {
      toastError(error instanceof Error ? error.message : String(error))
    } finally {
      setBusy(false)
    }
  }

  const disabled = busy || state === 'loading' || state === 'unsupported' || state === 'blocked'
  return (
    <Field disabled={disabled || !online} className="flex flex-col gap-3">
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <Label className="flex items-center gap-2 text-sm font-medium text-slate-900 dark:text-white">
            <BellAlertIcon
              className="size-5 shrink-0 text-brand-600 dark:text-brand-400"
              aria-hidden="true"
            />
            Push notifications on this device
          </Label>
          <Description className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {state === 'on'
              ? 'This device shows a notification when something happens, even while Pairwise is closed.'
              : 'Get a notification on this device when something happens, even while Pairwise is closed.'}
          </Description>
        </div>
        <div className="flex shrink-0 items-center gap-2 pt-0.5">
          {(busy || state === 'loading') && <Spinner className="size-4" label={null} />}
          <Switch
            checked={on}
            onChange={(next) => void toggle(next)}
            className={cn(
              'group relative inline-flex h-6 w-11 shrink-0 cursor-pointer rounded-full p-0.5 transition-colors',
              'bg-slate-300 data-checked:bg-brand-600 dark:bg-slate-600 dark:data-checked:bg-brand-500',
              'data-focus:outline-2 data-focus:outline-offset-2 data-focus:outline-brand-600 dark:data-focus:outline-brand-400',
              'data-disabled:cursor-not-allowed data-disabled:bg-slate-200 dark:data-disabled:bg-slate-700',
              'data-checked:data-disabled:bg-brand-300 dark:data-checked:data-disabled:bg-brand-800',
            )}
          >
            <span
              aria-hidden="true"
              className="size-5 translate-x-0 rounded-full bg-white shadow ring-0 transition-transform group-data-checked:translate-x-5"
            />
          </Switch>
        </div>
      </div>
      <StateNote state={state} online={online} />
    </Field>
  )
}

function StateNote(props: { state: PushDeviceState | 'loading'; online: boolean }) {
  if (props.state === 'unsupported') {
    return (
      <Note icon="info">
        This browser cannot receive push notifications. On an iPhone or iPad, add Pairwise to your
        Home Screen first (Share, then Add to Home Screen) and turn them on in the installed app.
      </Note>
    )
  }
  if (props.state === 'blocked') {
    return (
      <Note icon="blocked">
        Notifications are blocked for Pairwise in this browser. To allow them, open the site
        settings (the icon left of the address bar), set Notifications to Allow, then come back
        here.
      </Note>
    )
  }
  if (!props.online && props.state !== 'loading') {
    return <Note icon="info">Connect to the internet to change this setting.</Note>
  }
  return null
}

function Note(props: { icon: 'info' | 'blocked'; children: string }) {
  const Icon = props.icon === 'blocked' ? NoSymbolIcon : InformationCircleIcon
  return (
    <p
      className={cn(
        'flex gap-2 rounded-lg px-3 py-2 text-sm',
        props.icon === 'blocked'
          ? 'bg-amber-50 text-amber-900 dark:bg-amber-950/50 dark:text-amber-200'
          : 'bg-slate-50 text-slate-700 dark:bg-slate-800/60 dark:text-slate-300',
      )}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>{props.children}</span>
    </p>
  )
}
