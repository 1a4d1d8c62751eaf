import { Description, Label, Radio, RadioGroup } from '@headlessui/react'
import { CheckCircleIcon, XCircleIcon } from '@heroicons/react/20/solid'
import { cn } from '../../components/ui/cn.ts'

export type Decision = 'approved' | 'rejected'

const OPTIONS = [
  {
    value: 'approved',
    label: 'Approve',
    text: 'The topic opens for applications.',
    icon: CheckCircleIcon,
    checked:
      'data-checked:border-emerald-600 data-checked:bg-emerald-50 dark:data-checked:border-emerald-500 dark:data-checked:bg-emerald-950/40',
    iconClass: 'text-emerald-600 dark:text-emerald-400',
  },
  {
    value: 'rejected',
    label: 'Reject',
    text: 'The mentor is told, with your reason.',
    icon: XCircleIcon,
    checked:
      'data-checked:border-red-600 data-checked:bg-red-50 dark:data-checked:border-red-500 dark:data-checked:bg-red-950/40',
    iconClass: 'text-red-600 dark:text-red-400',
  },
] as const

/** Approve or reject, as two large radio cards (Headless UI RadioGroup: arrow keys move). */
export function DecisionPicker(props: { value: Decision; onChange: (value: Decision) => void }) {
  return (
    <RadioGroup
      value={props.value}
      onChange={props.onChange}
      aria-label="Decision"
      className="grid grid-cols-1 gap-3 sm:grid-cols-2"
    >
      {OPTIONS.map((option) => {
        const Icon = option.icon
        return (
          <Radio
            key={option.value}
            value={option.value}
            className={cn(
              'group flex cursor-pointer gap-3 rounded-xl border border-slate-300 p-4 transition-colors focus:outline-none data-focus:ring-2 data-focus:ring-brand-600 data-focus:ring-offset-2 dark:border-slate-700 dark:data-focus:ring-offset-slate-900',
              option.checked,
            )}
          >
            <Icon
              className={cn(
                'size-5 shrink-0 opacity-40 group-data-checked:opacity-100',
                option.iconClass,
              )}
              aria-hidden="true"
            />
            <div>
              <Label className="block text-sm font-semibold text-slate-900 dark:text-white">
                {option.label}
              </Label>
              <Description className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
                {option.text}
              </Description>
            </div>
          </Radio>
        )
      })}
    </RadioGroup>
  )
}
