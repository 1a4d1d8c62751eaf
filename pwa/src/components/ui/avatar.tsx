import { initialsOf } from '../../../../shared/user.ts'
import { cn } from './cn.ts'

const SIZES = {
  xs: 'size-6 text-[0.625rem]',
  sm: 'size-8 text-xs',
  md: 'size-10 text-sm',
  lg: 'size-16 text-xl',
  xl: 'size-24 text-3xl',
}

/** A person's photo, or their initials on a colour of their own. Decorative: a name is always beside it. */
export function Avatar(props: {
  user: { username: string; full_name: string; profileImage: string | null }
  size?: keyof typeof SIZES
  className?: string
}) {
  const size = SIZES[props.size ?? 'md']
  const { user } = props
  if (user.profileImage) {
    return (
      <img
        src={user.profileImage}
        alt=""
        className={cn(
          'shrink-0 rounded-full object-cover ring-2 ring-white dark:ring-slate-900',
          size,
          props.className,
        )}
      />
    )
  }
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex shrink-0 items-center justify-center rounded-full font-semibold ring-2 ring-white dark:ring-slate-900',
        PALETTE[hash(user.username) % PALETTE.length],
        size,
        props.className,
      )}
    >
      {initialsOf(user.full_name, user.username)}
    </span>
  )
}

const PALETTE = [
  'bg-brand-100 text-brand-800 dark:bg-brand-900 dark:text-brand-100',
  'bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-100',
  'bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100',
  'bg-sky-100 text-sky-800 dark:bg-sky-900 dark:text-sky-100',
  'bg-rose-100 text-rose-800 dark:bg-rose-900 dark:text-rose-100',
  'bg-violet-100 text-violet-800 dark:bg-violet-900 dark:text-violet-100',
]

function hash(text: string): number {
  let h = 0
  for (const ch of text) h = (h * 31 + (ch.codePointAt(0) ?? 0)) >>> 0
  return h
}
