import { Input } from '@headlessui/react'
import { type FormEvent, type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react'
import { SUBJECT_MAX_LENGTH } from '../../../../shared/constants.ts'
import type { TopicInput } from '../../../../shared/topic.ts'
import { RichTextEditor } from '../../components/editor/rich-text-editor.tsx'
import { InterestsPicker } from '../../components/interests-picker.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardBody } from '../../components/ui/card.tsx'
import { cn } from '../../components/ui/cn.ts'
import { controlClasses, Field } from '../../components/ui/field.tsx'
import { ChoiceGroup } from './choice-group.tsx'
import { LOCATION_CHOICES, MENTEE_CHOICES } from './choices.ts'
import {
  type TopicFormErrors,
  type TopicFormField,
  type TopicFormValues,
  validateTopic,
} from './form-values.ts'
import { SeniorityField } from './seniority-field.tsx'

const FIELD_ORDER: TopicFormField[] = [
  'subject',
  'description',
  'maxMentees',
  'location',
  'seniorityRequired',
  'interests',
]

/** Inputs in which Enter submits the form, as it does natively. */
const TEXT_INPUT_TYPES = new Set(['text', 'email', 'number', 'search', 'tel', 'url', 'password'])

/**
 * The topic form, for creating and editing (spec sections 2 and 5): checked
 * with the shared schema on submit, messages under the fields, then again on
 * every change once a submit has shown them.
 */
export function TopicForm(props: {
  initial: TopicFormValues
  submitLabel: string
  busyLabel: string
  busy: boolean
  onSubmit: (input: TopicInput) => void
  secondary: ReactNode
}) {
  const [values, setValues] = useState(props.initial)
  const [errors, setErrors] = useState<TopicFormErrors>({})
  const [checked, setChecked] = useState(false)
  const form = useRef<HTMLFormElement>(null)
  const ids = useId()

  function set<F extends TopicFormField>(field: F, value: TopicFormValues[F]) {
    const next = { ...values, [field]: value }
    setValues(next)
    if (checked) {
      const result = validateTopic(next)
      setErrors(result.ok ? {} : result.errors)
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    setChecked(true)
    const result = validateTopic(values)
    if (!result.ok) {
      setErrors(result.errors)
      // Take the user to the first field that needs attention.
      const first = FIELD_ORDER.find((field) => result.errors[field])
      requestAnimationFrame(() => {
        const box = form.current?.querySelector(`[data-field="${first}"]`)
        const target =
          box?.querySelector<HTMLElement>('[contenteditable]') ??
          box?.querySelector<HTMLElement>('input, button, [role="radio"][tabindex="0"]')
        target?.focus()
      })
      return
    }
    setErrors({})
    props.onSubmit(result.input)
  }

  /**
   * Enter submits from a text field or a button only: on an option card or
   * any other custom control (Headless UI submits the form from there) it
   * does nothing, and on a dropdown's button it opens the list, as Space
   * does. Caught before the control sees it. Open lists and dialogs (portals
   * still inside this form for React's events) keep their own Enter.
   */
  function enterOnlyFromTextOrButton(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key !== 'Enter') return
    const target = event.target as HTMLElement
    if (target.closest('[role="listbox"], [role="dialog"], [role="menu"]')) return
    if (target.isContentEditable || target instanceof HTMLTextAreaElement) return
    if (target instanceof HTMLInputElement && TEXT_INPUT_TYPES.has(target.type)) return
    const opensList = target.getAttribute('aria-haspopup') === 'listbox'
    if (target instanceof HTMLButtonElement && !opensList) return
    event.preventDefault()
    event.stopPropagation()
    if (opensList) target.click()
  }

  const descriptionLabel = `${ids}-description-label`
  const descriptionHelp = `${ids}-description-help`

  return (
    <form
      ref={form}
      onSubmit={submit}
      onKeyDownCapture={enterOnlyFromTextOrButton}
      noValidate
      aria-busy={props.busy}
    >
      <Card>
        <CardBody className="space-y-7">
          <div data-field="subject">
            <Field label="Subject" error={errors.subject}>
              <Input
                value={values.subject}
                maxLength={SUBJECT_MAX_LENGTH}
                invalid={Boolean(errors.subject)}
                placeholder="e.g. Getting started with system design"
                onChange={(e) => set('subject', e.target.value)}
                className={cn(controlClasses, 'h-10')}
              />
            </Field>
          </div>

          <div className="space-y-1.5" data-field="description">
            <span
              id={descriptionLabel}
              className="block text-sm font-medium text-slate-800 dark:text-slate-200"
            >
              Description
            </span>
            <RichTextEditor
              initialHtml={props.initial.description}
              onChange={(html) => set('description', html)}
              labelledBy={descriptionLabel}
              describedBy={descriptionHelp}
              invalid={Boolean(errors.description)}
              placeholder="What will you cover, and who is it for?"
            />
            <p
              id={descriptionHelp}
              role={errors.description ? 'alert' : undefined}
              className={
                errors.description
                  ? 'text-sm font-medium text-red-600 dark:text-red-400'
                  : 'text-xs text-slate-500 dark:text-slate-400'
              }
            >
              {errors.description ??
                'Optional. Use the toolbar or shortcuts such as Ctrl+B and Ctrl+K.'}
            </p>
          </div>

          <div data-field="maxMentees">
            <ChoiceGroup
              label="Maximum Mentees"
              value={values.maxMentees}
              onChange={(n) => set('maxMentees', n)}
              choices={MENTEE_CHOICES}
              columns={2}
              error={errors.maxMentees}
            />
          </div>
          <div data-field="location">
            <ChoiceGroup
              label="Location"
              value={values.location}
              onChange={(l) => set('location', l)}
              choices={LOCATION_CHOICES}
              columns={3}
              error={errors.location}
            />
          </div>

          <div data-field="seniorityRequired">
            <SeniorityField
              value={values.seniorityRequired}
              onChange={(levels) => set('seniorityRequired', levels)}
              error={errors.seniorityRequired}
            />
          </div>

          <div data-field="interests">
            <Field
              label="Interests"
              error={errors.interests}
              hint="Pick from known interests or type your own and press Enter."
            >
              <InterestsPicker
                value={values.interests}
                onChange={(list) => set('interests', list)}
              />
            </Field>
          </div>
        </CardBody>
        <div className="flex flex-col-reverse gap-2 border-t border-slate-200 px-4 py-4 sm:flex-row sm:justify-end sm:px-6 dark:border-slate-800">
          {props.secondary}
          <Button type="submit" busy={props.busy}>
            {props.busy ? props.busyLabel : props.submitLabel}
          </Button>
        </div>
      </Card>
    </form>
  )
}
