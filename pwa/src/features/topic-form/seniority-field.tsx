import { XMarkIcon } from '@heroicons/react/20/solid'
import { useRef } from 'react'
import { SENIORITY_LABELS, SENIORITY_LEVELS, type Seniority } from '../../../../shared/constants.ts'
import { Field } from '../../components/ui/field.tsx'
import { Select } from '../../components/ui/select.tsx'

/**
 * Required seniority (spec section 2): levels are added from a select, where
 * a level already chosen is disabled, and show as chips that can be removed.
 */
export function SeniorityField(props: {
  value: Seniority[]
  onChange: (value: Seniority[]) => void
  error?: string
}) {
  const all = props.value.length === SENIORITY_LEVELS.length
  const options = SENIORITY_LEVELS.map((level) => ({
    value: level,
    label: SENIORITY_LABELS[level],
    disabled: props.value.includes(level),
  }))
  // Chips in the levels' own order, whatever order they were picked in.
  const chosen = SENIORITY_LEVELS.filter((level) => props.value.includes(level))
  const box = useRef<HTMLDivElement>(null)

  function remove(level: Seniority) {
    props.onChange(props.value.filter((l) => l !== level))
    // The removed chip's button is gone: focus moves on to the next chip, else back to the select.
    const next = chosen[chosen.indexOf(level) + 1]
    requestAnimationFrame(() => {
      const target = next
        ? box.current?.querySelector<HTMLElement>(`[data-level="${next}"]`)
        : box.current?.querySelector<HTMLElement>('button')
      target?.focus()
    })
  }

  return (
    <div ref={box}>
      <Field
        label="Required Seniority"
        error={props.error}
        hint="Who this topic is for. Pick one or more levels."
      >
        <Select<Seniority | ''>
          value=""
          options={options}
          placeholder={all ? 'All levels added' : 'Add a seniority level'}
          onChange={(level) => {
            if (level && !props.value.includes(level)) props.onChange([...props.value, level])
          }}
        />
        {chosen.length > 0 && (
          <ul className="flex flex-wrap gap-2 pt-1" aria-label="Chosen seniority levels">
            {chosen.map((level) => (
              <li
                key={level}
                className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-1 pr-1 pl-3 text-sm font-medium text-brand-800 ring-1 ring-brand-600/20 ring-inset dark:bg-brand-950/60 dark:text-brand-200 dark:ring-brand-400/30"
              >
                {SENIORITY_LABELS[level]}
                <button
                  type="button"
                  aria-label={`Remove ${SENIORITY_LABELS[level]}`}
                  data-level={level}
                  onClick={() => remove(level)}
                  className="rounded-full p-0.5 text-brand-700 hover:bg-brand-100 hover:text-brand-900 dark:text-brand-300 dark:hover:bg-brand-900 dark:hover:text-white"
                >
                  <XMarkIcon className="size-4" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        )}
      </Field>
    </div>
  )
}
