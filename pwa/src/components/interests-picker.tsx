import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions } from '@headlessui/react'
import { PlusIcon, XMarkIcon } from '@heroicons/react/20/solid'
import { type KeyboardEvent, useRef, useState } from 'react'
import { INTEREST_MAX_LENGTH, INTERESTS_MAX_COUNT } from '../../../shared/constants.ts'
import { addInterest } from '../../../shared/interests.ts'
import { sameInterest, suggestInterests } from '../../../shared/matching.ts'
import { useSyncedTable } from '../sync/engine/react.ts'
import { cn } from './ui/cn.ts'

/** One interest, whatever the spelling: case, spacing, plurals and known abbreviations (JS, k8s). */
const same = sameInterest

const NAVIGATION_KEYS = new Set(['ArrowDown', 'ArrowUp', 'Home', 'End', 'PageUp', 'PageDown'])

const OPTION =
  'flex cursor-default items-center gap-2 rounded-md px-2.5 py-2 text-slate-800 select-none data-focus:bg-brand-50 data-focus:text-brand-800 dark:text-slate-200 dark:data-focus:bg-brand-900/60 dark:data-focus:text-white'

/**
 * Picks interests from the known list (the synced `interests` table) or adds
 * free text (spec sections 2 and 5): a typed value is added only when it is
 * non-empty and not already chosen, ignoring case. Enter adds what is typed,
 * Backspace in the empty input removes the last chip. Put it inside a
 * <Field label=…> for its label.
 *
 * @example
 * <Field label="Interests"><InterestsPicker value={tags} onChange={setTags} /></Field>
 */
export function InterestsPicker(props: {
  value: string[]
  onChange: (next: string[]) => void
  disabled?: boolean
  id?: string
  placeholder?: string
}) {
  const known = useSyncedTable('interests')
  const [query, setQuery] = useState('')
  const input = useRef<HTMLInputElement>(null)
  const activeOption = useRef<string | null>(null)
  // Headless UI highlights the first option when the list opens; in an empty
  // input, Enter should only pick an option the user moved to with the keys.
  const navigated = useRef(false)
  const full = props.value.length >= INTERESTS_MAX_COUNT
  const disabled = props.disabled ?? false

  const typed = query.trim()
  const chosen = (name: string) => props.value.some((v) => same(v, name))
  // Known interests that start with (first) or contain what is typed, in any
  // spelling, so the vocabulary converges instead of splitting.
  const matches = suggestInterests(
    typed,
    (known ?? []).map((row) => ({ name: row.name, count: 1 })),
    props.value,
    known?.length ?? 0,
  )
  const exact = (known ?? []).find((row) => same(row.name, typed))?.name
  const offerTyped = typed !== '' && !exact && !chosen(typed)
  const alreadyChosen = typed !== '' && chosen(typed)

  const clearInput = () => {
    setQuery('')
    navigated.current = false
    if (input.current) input.current.value = ''
  }
  const add = (name: string) => {
    if (full) return
    // A typed value that names a known interest takes the known spelling.
    const canonical = (known ?? []).find((row) => same(row.name, name))?.name ?? name
    const next = addInterest(props.value, canonical)
    if (next.length !== props.value.length) props.onChange(next)
    clearInput()
  }
  const remove = (name: string) => props.onChange(props.value.filter((v) => v !== name))

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (NAVIGATION_KEYS.has(event.key)) navigated.current = true
    if (event.key === 'Enter') {
      if (typed === '' && !navigated.current) event.preventDefault()
      else if (activeOption.current === null) {
        // Nothing highlighted: Enter adds the typed text (and never submits the form).
        event.preventDefault()
        if (typed !== '') add(typed)
      }
    } else if (event.key === 'Backspace' && event.currentTarget.value === '') {
      const last = props.value.at(-1)
      if (last !== undefined) {
        event.preventDefault()
        remove(last)
      }
    }
  }

  return (
    <div>
      <Combobox<string | null>
        value={null}
        onChange={(name) => {
          if (name) add(name)
        }}
        onClose={clearInput}
        disabled={disabled}
      >
        {({ activeOption: active }) => {
          activeOption.current = (active as string | null) ?? null
          return (
            <>
              <div
                className={cn(
                  'flex min-h-10 w-full flex-wrap items-center gap-1.5 rounded-lg bg-white px-2 py-1.5 text-sm shadow-sm ring-1 ring-slate-300 ring-inset focus-within:ring-2 focus-within:ring-brand-600 dark:bg-slate-950 dark:ring-slate-700 dark:focus-within:ring-brand-400',
                  disabled && 'cursor-not-allowed bg-slate-50 dark:bg-slate-900',
                )}
              >
                {props.value.map((name) => (
                  <span
                    key={name}
                    className="inline-flex max-w-full items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2.5 text-xs font-medium text-brand-800 ring-1 ring-brand-600/20 ring-inset dark:bg-brand-950/60 dark:text-brand-200 dark:ring-brand-400/30"
                  >
                    <span className="truncate">{name}</span>
                    {!disabled && (
                      <button
                        type="button"
                        onClick={() => remove(name)}
                        aria-label={`Remove ${name}`}
                        className="rounded-full p-0.5 text-brand-700 hover:bg-brand-100 hover:text-brand-900 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-brand-300 dark:hover:bg-brand-900 dark:hover:text-white"
                      >
                        <XMarkIcon className="size-3.5" aria-hidden="true" />
                      </button>
                    )}
                  </span>
                ))}
                {disabled && props.value.length === 0 && (
                  <span className="px-1 text-slate-500 dark:text-slate-400">None</span>
                )}
                {!disabled && (
                  <ComboboxInput
                    ref={input}
                    id={props.id}
                    maxLength={INTEREST_MAX_LENGTH}
                    placeholder={
                      full
                        ? `Up to ${INTERESTS_MAX_COUNT} interests`
                        : (props.placeholder ?? 'Type or pick an interest…')
                    }
                    onChange={(event) => {
                      navigated.current = false
                      setQuery(event.target.value)
                    }}
                    onKeyDown={onKeyDown}
                    className="h-7 min-w-40 flex-1 border-0 bg-transparent px-1 text-sm text-slate-900 placeholder:text-slate-500 focus:outline-none disabled:cursor-not-allowed dark:text-slate-100 dark:placeholder:text-slate-400"
                  />
                )}
              </div>
              <ComboboxOptions
                anchor="bottom start"
                // Not modal: the chips and the rest of the form stay usable while the list is open.
                modal={false}
                className="z-50 w-(--input-width) min-w-64 [--anchor-max-height:16rem] overflow-y-auto rounded-lg bg-white p-1 text-sm shadow-lg ring-1 ring-slate-900/10 [--anchor-gap:6px] empty:invisible focus:outline-none dark:bg-slate-900 dark:ring-white/10"
              >
                {offerTyped && (
                  <ComboboxOption value={typed} className={OPTION}>
                    <PlusIcon className="size-4 text-brand-600 dark:text-brand-400" aria-hidden />
                    <span>
                      Add “<span className="font-semibold">{typed}</span>”
                    </span>
                  </ComboboxOption>
                )}
                {matches.map((name) => (
                  <ComboboxOption key={name} value={name} className={OPTION}>
                    {name}
                  </ComboboxOption>
                ))}
              </ComboboxOptions>
              <p
                role="status"
                className="mt-1 text-xs text-slate-600 empty:hidden dark:text-slate-300"
              >
                {alreadyChosen ? `“${typed}” is already selected.` : null}
                {full ? `You can choose up to ${INTERESTS_MAX_COUNT} interests.` : null}
              </p>
            </>
          )
        }}
      </Combobox>
    </div>
  )
}
