import { CheckIcon, PlusIcon } from '@heroicons/react/20/solid'
import { useState } from 'react'
import { Link } from 'react-router-dom'
import { paths } from '../../lib/paths.ts'
import { useChange } from '../../lib/use-change.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import { useMutations } from '../../sync/engine/react.ts'
import { Button } from '../ui/button.tsx'
import { Card } from '../ui/card.tsx'
import { cn } from '../ui/cn.ts'

/**
 * Asked instead of recommendations while the profile has no interests: the
 * interests open topics use most, to pick a few with one tap each; saving
 * puts them in the profile (offline too, through the outbox).
 */
export function InterestPrompt(props: { popular: string[] }) {
  const me = useCurrentUser()
  const mutate = useMutations()
  const change = useChange()
  const [chosen, setChosen] = useState<string[]>([])
  const [busy, setBusy] = useState(false)
  const toggle = (name: string) =>
    setChosen((now) => (now.includes(name) ? now.filter((n) => n !== name) : [...now, name]))
  const save = async () => {
    setBusy(true)
    try {
      await change(() => mutate.updateProfile(me.username, { interests: chosen }), {
        success: 'Your interests are saved. Here is what fits them.',
        successTitle: 'Interests saved',
      })
    } finally {
      setBusy(false)
    }
  }
  return (
    <Card className="flex h-56 flex-col gap-2 p-4 sm:p-5">
      <div>
        <p className="font-medium text-slate-900 dark:text-white">
          What would you like to learn about?
        </p>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Pick a few, and we suggest topics that fit.
        </p>
      </div>
      {props.popular.length > 0 ? (
        <ul
          aria-label="Popular interests"
          className="flex max-h-[5.5rem] flex-wrap gap-2 overflow-y-auto"
        >
          {props.popular.map((name) => {
            const on = chosen.includes(name)
            return (
              <li key={name}>
                <button
                  type="button"
                  aria-pressed={on}
                  onClick={() => toggle(name)}
                  className={cn(
                    'inline-flex h-8 items-center gap-1 rounded-full px-3 text-sm font-medium ring-1 ring-inset transition-colors',
                    on
                      ? 'bg-brand-600 text-white ring-brand-600 dark:bg-brand-600'
                      : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50 dark:bg-slate-900 dark:text-slate-200 dark:ring-slate-700 dark:hover:bg-slate-800',
                  )}
                >
                  {on ? (
                    <CheckIcon className="size-4" aria-hidden="true" />
                  ) : (
                    <PlusIcon className="size-4" aria-hidden="true" />
                  )}
                  {name}
                </button>
              </li>
            )
          })}
        </ul>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          No topic names an interest yet.
        </p>
      )}
      <div className="mt-auto flex flex-wrap items-center gap-x-4 gap-y-2">
        <Button onClick={save} disabled={chosen.length === 0} busy={busy}>
          Save interests
        </Button>
        <Link
          to={paths.profile(me.username)}
          className="text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
        >
          Type your own
        </Link>
      </div>
    </Card>
  )
}
