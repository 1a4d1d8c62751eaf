import { cn } from './ui/cn.ts'

/** Pairwise's mark: two people side by side, the larger one leading. */
export function LogoMark(props: { className?: string }) {
  return (
    <svg
      viewBox="0 0 64 64"
      className={cn('shrink-0', props.className ?? 'size-8')}
      aria-hidden="true"
    >
      <rect width="64" height="64" rx="14" fill="#4f46e5" />
      <circle cx="24" cy="26" r="9" fill="#fff" />
      <circle cx="42" cy="30" r="7" fill="#c7d2fe" />
      <path d="M10 52c2-9 8-14 14-14s12 5 14 14z" fill="#fff" />
      <path d="M32 52c1.5-7 6-11 10-11s8.5 4 10 11z" fill="#c7d2fe" />
    </svg>
  )
}

/** The mark with the product name beside it. */
export function Logo(props: { className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2', props.className)}>
      <LogoMark className="size-8" />
      <span className="text-lg font-bold tracking-tight whitespace-nowrap text-slate-900 dark:text-white">
        Pairwise
      </span>
    </span>
  )
}
