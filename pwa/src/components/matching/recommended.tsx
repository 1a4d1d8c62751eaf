import { SparklesIcon, XMarkIcon } from '@heroicons/react/20/solid'
import { memo, useEffect, useState } from 'react'
import { Link } from 'react-router-dom'
import { reasonLine } from '../../../../shared/matching.ts'
import { paths } from '../../lib/paths.ts'
import { useChange } from '../../lib/use-change.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import type { SyncTopic } from '../../sync/engine/db.ts'
import type { Merged } from '../../sync/engine/overlay.ts'
import { useMutations, useSyncStatus } from '../../sync/engine/react.ts'
import { Avatar } from '../ui/avatar.tsx'
import { Button } from '../ui/button.tsx'
import { Card } from '../ui/card.tsx'
import { cn } from '../ui/cn.ts'
import { InterestPrompt } from './interest-prompt.tsx'
import { useRecommendations } from './use-matching.ts'

/** How long "Undo" stays after "Not interested". */
const UNDO_MS = 8_000

/**
 * "Recommended for you" (issue 17): open topics ranked by fit to the
 * person's profile, each with its match score and its reasons on one line,
 * and "Not interested". Computed on this device, so it works offline. A
 * person with no interests yet is asked for some. The strip keeps one height
 * whatever it shows (cards scroll sideways on a phone), so the list below
 * never moves when it fills in. Its own data only: a keystroke in the list's
 * search field below does not draw it again.
 */
export const Recommended = memo(function Recommended(props: { limit: number; className?: string }) {
  const computed = useRecommendations(props.limit)
  const { lastSyncedAt } = useSyncStatus()
  // Before the first sync ends there is nothing to judge by: not "nothing fits".
  const state: typeof computed =
    computed.kind !== 'ready' && lastSyncedAt === null ? { kind: 'loading' } : computed
  const me = useCurrentUser()
  const mutate = useMutations()
  const change = useChange()
  const [hidden, setHidden] = useState<{ id: string; subject: string } | null>(null)

  useEffect(() => {
    if (!hidden) return
    const timer = setTimeout(() => setHidden(null), UNDO_MS)
    return () => clearTimeout(timer)
  }, [hidden])

  const dismiss = (topic: Merged<SyncTopic>) => {
    setHidden({ id: topic.id, subject: topic.subject })
    void change(() => mutate.dismissTopic(topic.id, true), {
      success: `“${topic.subject}” will not be recommended to you again.`,
      successTitle: 'Not interested',
    })
  }
  const undo = () => {
    if (!hidden) return
    const { id, subject } = hidden
    setHidden(null)
    void change(() => mutate.dismissTopic(id, false), {
      success: `“${subject}” can be recommended to you again.`,
      successTitle: 'Undone',
    })
  }

  return (
    <section aria-labelledby="recommended-heading" className={cn('mb-8', props.className)}>
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2
          id="recommended-heading"
          className="flex items-center gap-2 text-lg font-semibold text-slate-900 dark:text-white"
        >
          <SparklesIcon className="size-5 text-brand-600 dark:text-brand-400" aria-hidden="true" />
          {state.kind === 'in-demand' ? 'In demand, and fits you' : 'Recommended for you'}
        </h2>
        {hidden ? (
          <p className="min-w-0 truncate text-sm text-slate-600 dark:text-slate-400" role="status">
            Hidden “{hidden.subject}”.{' '}
            <button
              type="button"
              onClick={undo}
              className="font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
            >
              Undo
            </button>
          </p>
        ) : state.kind === 'in-demand' ? (
          <p className="hidden text-sm text-amber-800 sm:block dark:text-amber-200">
            More people want each of these than it has places. You can still apply.
          </p>
        ) : (
          state.kind === 'ready' && (
            <p className="hidden text-sm text-slate-600 sm:block dark:text-slate-400">
              From your{' '}
              <Link
                to={paths.profile(me.username)}
                className="font-medium text-brand-700 hover:underline dark:text-brand-300"
              >
                profile’s interests
              </Link>
            </p>
          )
        )}
      </div>
      {/* One height whatever it shows (the cards' 13.5rem and room for their shadow): nothing below moves. */}
      <div className="h-56">
        {state.kind === 'loading' && <Placeholder />}
        {state.kind === 'no-interests' && <InterestPrompt popular={state.popular} />}
        {state.kind === 'none' && (
          <Card className="flex h-56 flex-col items-start justify-center gap-2 overflow-y-auto p-4 sm:p-6">
            <p className="font-medium text-slate-900 dark:text-white">
              No open topic fits your interests right now
            </p>
            <p className="max-w-prose text-sm text-slate-600 dark:text-slate-400">
              Either none shares an interest with your profile, or every one that does already has
              more people interested than free places. Add interests to your profile, or browse all
              topics below.
            </p>
            <Link
              to={paths.profile(me.username)}
              className="text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
            >
              Edit your interests
            </Link>
          </Card>
        )}
        {(state.kind === 'ready' || state.kind === 'in-demand') && (
          <ul
            aria-label="Recommended topics"
            className="-mx-4 flex snap-x snap-mandatory gap-4 overflow-x-auto px-4 py-1 sm:mx-0 sm:grid sm:grid-cols-2 sm:overflow-visible sm:px-0 lg:grid-cols-3"
          >
            {state.items.map((r) => (
              <li key={r.topic.id} className="w-[85%] shrink-0 snap-start sm:w-auto">
                <RecommendationCard
                  topic={r.topic}
                  score={r.score}
                  reasons={r.reasons}
                  onDismiss={() => dismiss(r.topic)}
                />
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  )
})

function RecommendationCard(props: {
  topic: Merged<SyncTopic>
  score: number
  reasons: string[]
  onDismiss: () => void
}) {
  const { topic } = props
  const percent = Math.round(props.score * 100)
  const mentorName = topic.mentor.full_name || topic.mentor.username
  return (
    <Card className="flex h-[13.5rem] flex-col" data-testid="recommendation">
      <article className="flex flex-1 flex-col gap-3 p-4" aria-labelledby={`rec-${topic.id}`}>
        <div className="flex items-center justify-between gap-2">
          <span
            className="inline-flex items-center rounded-full bg-brand-50 px-2.5 py-0.5 text-sm font-semibold text-brand-800 ring-1 ring-brand-200 ring-inset dark:bg-brand-900/50 dark:text-brand-200 dark:ring-brand-800"
            title="How well the topic fits your profile"
          >
            {percent}% match
          </span>
          <Button
            variant="ghost"
            size="sm"
            onClick={props.onDismiss}
            aria-label={`Not interested in “${topic.subject}”`}
            className="-mr-2 text-slate-600 dark:text-slate-400"
          >
            <XMarkIcon className="size-4" aria-hidden="true" />
            Not interested
          </Button>
        </div>
        <h3 id={`rec-${topic.id}`} className="line-clamp-2 leading-snug font-semibold">
          <Link
            to={paths.topic(topic.id)}
            className="text-slate-900 hover:text-brand-700 dark:text-white dark:hover:text-brand-300"
          >
            {topic.subject}
          </Link>
        </h3>
        <p className="flex min-w-0 items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
          <Avatar user={topic.mentor} size="xs" />
          <span className="truncate">{mentorName}</span>
        </p>
        <p
          className="mt-auto line-clamp-3 text-sm text-slate-600 dark:text-slate-400"
          data-testid="reasons"
        >
          {reasonLine(props.reasons)}
        </p>
      </article>
    </Card>
  )
}

function Placeholder() {
  return (
    <div
      aria-hidden="true"
      className="-mx-4 flex gap-4 overflow-hidden px-4 py-1 sm:mx-0 sm:grid sm:grid-cols-2 sm:px-0 lg:grid-cols-3"
    >
      {[0, 1, 2].map((i) => (
        <div
          key={i}
          className={cn(
            'h-[13.5rem] w-[85%] shrink-0 rounded-xl border border-slate-200 bg-slate-50 sm:w-auto dark:border-slate-800 dark:bg-slate-900/60',
            i > 1 && 'hidden lg:block',
            i > 0 && 'sm:block',
          )}
        />
      ))}
    </div>
  )
}
