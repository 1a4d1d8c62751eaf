import { UsersIcon } from '@heroicons/react/20/solid'
import { cn } from '../ui/cn.ts'

/**
 * A topic's mentees as currentMentees/maxMentees ("1/2") with an icon; read
 * out as "Mentees: 1/2".
 *
 * @example
 * <MenteeCount current={topic.currentMentees} max={topic.maxMentees} />
 */
export function MenteeCount(props: { current: number; max: number; className?: string }) {
  const full = props.current >= props.max
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 text-sm text-slate-600 tabular-nums dark:text-slate-400',
        props.className,
      )}
      title={full ? 'Mentees (full)' : 'Mentees'}
    >
      <UsersIcon
        className="size-4 shrink-0 text-slate-500 dark:text-slate-400"
        aria-hidden="true"
      />
      <span className="sr-only">Mentees: </span>
      <span>{`${props.current}/${props.max}`}</span>
    </span>
  )
}
