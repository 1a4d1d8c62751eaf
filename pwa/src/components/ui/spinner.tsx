import { cn } from './cn.ts'

/** A spinning ring. `label` is read out by screen readers; null when a text beside it says it. */
export function Spinner(props: { className?: string; label?: string | null }) {
  const label = props.label === undefined ? 'Loading' : props.label
  return (
    <svg
      className={cn('animate-spin text-current', props.className ?? 'size-6')}
      viewBox="0 0 24 24"
      fill="none"
      role={label ? 'img' : undefined}
      aria-label={label ?? undefined}
      aria-hidden={label ? undefined : true}
    >
      <circle className="opacity-20" cx="12" cy="12" r="10" stroke="currentColor" strokeWidth="4" />
      <path
        className="opacity-90"
        fill="currentColor"
        d="M22 12a10 10 0 0 0-10-10v4a6 6 0 0 1 6 6h4Z"
      />
    </svg>
  )
}

/**
 * The one loading state of a screen: a spinner (and an optional text) centred
 * in the top part of the screen, the same place whatever is loading (the
 * screen's code or its data). It fades in only after 400 ms, so a quick read
 * from this device's database shows nothing at all.
 */
export function PageSpinner(props: { text?: string; className?: string }) {
  return (
    <div
      className={cn(
        'flex min-h-[40vh] animate-delayed-in flex-col items-center justify-center gap-3 text-slate-500 dark:text-slate-400',
        props.className,
      )}
      role="status"
      // The app's screen is not there yet: a return visit's snapshot stays up (lib/snapshot.ts).
      data-page-loading=""
    >
      <Spinner
        className="size-8 text-brand-600 dark:text-brand-400"
        label={props.text ? null : 'Loading'}
      />
      {props.text && <p className="text-sm">{props.text}</p>}
    </div>
  )
}
