import type { TopicStatus } from '../../../../shared/constants.ts'
import { Badge, type BadgeTone } from '../ui/badge.tsx'
import { cn } from '../ui/cn.ts'

/**
 * The words for a topic's status. Proposed reads "Pending" (the dashboard's
 * filter word, spec section 4); started reads "In Progress" (the list and
 * the detail page).
 */
const TOPIC_STATUS_LABELS: Record<TopicStatus, string> = {
  proposed: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  started: 'In Progress',
  concluded: 'Concluded',
}

const TOPIC_STATUS_TONES: Record<TopicStatus, BadgeTone> = {
  proposed: 'warning',
  approved: 'success',
  rejected: 'danger',
  started: 'brand',
  concluded: 'neutral',
}

const DOTS: Record<BadgeTone, string> = {
  neutral: 'bg-slate-500 dark:bg-slate-400',
  brand: 'bg-brand-600 dark:bg-brand-400',
  success: 'bg-emerald-600 dark:bg-emerald-400',
  warning: 'bg-amber-500 dark:bg-amber-400',
  danger: 'bg-red-600 dark:bg-red-400',
  info: 'bg-sky-600 dark:bg-sky-400',
  violet: 'bg-violet-600 dark:bg-violet-400',
}

/**
 * A topic's status as a coloured badge. `labels` replaces some of the words
 * (say, `{ proposed: 'Proposed' }` where the raw word is wanted).
 *
 * @example
 * <TopicStatusBadge status={topic.status} />
 */
export function TopicStatusBadge(props: {
  status: TopicStatus
  labels?: Partial<Record<TopicStatus, string>>
  className?: string
}) {
  const tone = TOPIC_STATUS_TONES[props.status]
  return (
    <Badge tone={tone} className={props.className}>
      <span className={cn('size-1.5 rounded-full', DOTS[tone])} aria-hidden="true" />
      {props.labels?.[props.status] ?? TOPIC_STATUS_LABELS[props.status]}
    </Badge>
  )
}
