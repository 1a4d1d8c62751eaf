import { ArrowTrendingUpIcon, SparklesIcon, TrophyIcon } from '@heroicons/react/20/solid'
import type { ComponentType, SVGProps } from 'react'
import { SENIORITY_LABELS, SENIORITY_LEVELS, type Seniority } from '../../../../shared/constants.ts'
import { Badge, type BadgeTone } from '../ui/badge.tsx'
import { cn } from '../ui/cn.ts'

type Icon = ComponentType<SVGProps<SVGSVGElement>>

/** Each level's icon and colour, so a card can be scanned at a glance. */
const SENIORITY_STYLES: Record<Seniority, { icon: Icon; tone: BadgeTone }> = {
  junior: { icon: SparklesIcon, tone: 'success' },
  mid: { icon: ArrowTrendingUpIcon, tone: 'info' },
  senior: { icon: TrophyIcon, tone: 'violet' },
}

/** One level: "Junior", "Mid-Level" or "Senior", with its icon. */
export function SeniorityBadge(props: { level: Seniority; className?: string }) {
  const { icon: LevelIcon, tone } = SENIORITY_STYLES[props.level]
  return (
    <Badge tone={tone} className={props.className}>
      <LevelIcon className="size-3.5" aria-hidden="true" />
      {SENIORITY_LABELS[props.level]}
    </Badge>
  )
}

/**
 * The levels a topic asks for (or a person has), always in the order
 * Junior, Mid-Level, Senior, as a list.
 *
 * @example
 * <SeniorityBadges levels={topic.seniorityRequired} />
 */
export function SeniorityBadges(props: {
  levels: readonly Seniority[]
  className?: string
  'aria-label'?: string
}) {
  const levels = SENIORITY_LEVELS.filter((level) => props.levels.includes(level))
  return (
    <ul
      className={cn('flex flex-wrap gap-1.5', props.className)}
      aria-label={props['aria-label'] ?? 'Seniority levels'}
    >
      {levels.map((level) => (
        <li key={level} className="flex">
          <SeniorityBadge level={level} />
        </li>
      ))}
    </ul>
  )
}
