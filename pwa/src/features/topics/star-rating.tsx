import { Field as HeadlessField, Label, Radio, RadioGroup } from '@headlessui/react'
import { StarIcon } from '@heroicons/react/20/solid'
import { useId } from 'react'
import { RATING_MAX, RATING_MIN } from '../../../../shared/constants.ts'
import { cn } from '../../components/ui/cn.ts'

const STARS = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i)

const starsText = (n: number) => `${n} ${n === 1 ? 'star' : 'stars'}`

/** A rating shown as filled and empty stars; read out as "Rated 4 out of 5". */
export function StarRating(props: { rating: number; className?: string }) {
  return (
    <span
      role="img"
      aria-label={`Rated ${props.rating} out of ${RATING_MAX}`}
      className={cn('inline-flex items-center gap-0.5', props.className)}
    >
      {STARS.map((n) => (
        <StarIcon
          key={n}
          aria-hidden="true"
          className={cn(
            'size-4',
            n <= props.rating
              ? 'text-amber-500 dark:text-amber-400'
              : 'text-slate-300 dark:text-slate-600',
          )}
        />
      ))}
    </span>
  )
}

/**
 * Choosing a rating: a radio group of five stars (Headless UI: arrow keys
 * move the choice, each star is named "3 stars" and so on).
 */
export function StarInput(props: { value: number; onChange: (value: number) => void }) {
  const labelId = useId()
  return (
    <div className="space-y-1.5">
      <span id={labelId} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        Rating
      </span>
      <div className="flex items-center gap-3">
        <RadioGroup
          value={props.value}
          onChange={props.onChange}
          aria-labelledby={labelId}
          className="flex items-center gap-1"
        >
          {STARS.map((n) => (
            <HeadlessField key={n}>
              <Radio
                value={n}
                className="group block cursor-pointer rounded-md p-0.5 data-focus:outline-2 data-focus:outline-offset-1 data-focus:outline-brand-600 dark:data-focus:outline-brand-400"
              >
                <StarIcon
                  aria-hidden="true"
                  className={cn(
                    'size-8 transition-colors',
                    n <= props.value
                      ? 'text-amber-500 dark:text-amber-400'
                      : 'text-slate-300 hover:text-amber-300 dark:text-slate-600',
                  )}
                />
              </Radio>
              <Label className="sr-only">{starsText(n)}</Label>
            </HeadlessField>
          ))}
        </RadioGroup>
        <span
          className="text-sm text-slate-600 tabular-nums dark:text-slate-400"
          aria-hidden="true"
        >
          {props.value}/{RATING_MAX}
        </span>
      </div>
    </div>
  )
}
