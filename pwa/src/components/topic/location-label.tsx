import { GlobeAltIcon, MapPinIcon } from '@heroicons/react/20/solid'
import { LOCATION_CARD_LABELS, type Location } from '../../../../shared/constants.ts'
import { cn } from '../ui/cn.ts'

/**
 * Where a topic meets, with an icon: "Online", "In Person", or (both)
 * "Online & In-Person". `labels` overrides the words (the dashboard shows
 * raw values other than both).
 *
 * @example
 * <LocationLabel location={topic.location} />
 */
export function LocationLabel(props: {
  location: Location
  labels?: Partial<Record<Location, string>>
  className?: string
}) {
  const label = props.labels?.[props.location] ?? LOCATION_CARD_LABELS[props.location]
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 text-sm text-slate-600 dark:text-slate-400',
        props.className,
      )}
    >
      <span className="inline-flex shrink-0 text-slate-500 dark:text-slate-400" aria-hidden="true">
        {props.location !== 'in-person' && <GlobeAltIcon className="size-4" />}
        {props.location !== 'online' && <MapPinIcon className="size-4" />}
      </span>
      <span>{label}</span>
    </span>
  )
}
