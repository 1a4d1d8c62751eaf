import { ArrowPathIcon } from '@heroicons/react/20/solid'
import { useMemo, useState } from 'react'
import { inDemand, type MatchPerson, recommend } from '../../../../shared/matching.ts'
import {
  DEFAULT_MATCH_WEIGHTS,
  MATCH_FACTOR_LABELS,
  MATCH_FACTORS,
  MATCH_WEIGHT_MAX,
  type MatchFactor,
  type MatchWeights,
} from '../../../../shared/programme-settings.ts'
import { useMatchingData } from '../../components/matching/use-matching.ts'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardBody } from '../../components/ui/card.tsx'
import { PageHeader } from '../../components/ui/page.tsx'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { useChange } from '../../lib/use-change.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { useMutations } from '../../sync/engine/react.ts'
import { settingsOf } from '../../sync/engine/view.ts'
import { ProgrammeRules } from './programme-rules.tsx'
import { ChangeLog } from './settings-change-log.tsx'

const FACTOR_HINTS: Record<MatchFactor, string> = {
  interests: 'Interests the person and the topic share. Always counts: recommendations share one.',
  seniority: 'The topic is for the person’s level.',
  location: 'The topic meets the way the person likes to meet.',
  capacity: 'More free places: a better chance of being accepted.',
  responsiveness: 'The mentor usually answers applications quickly.',
}

/** How many people the preview shows. */
const SAMPLE = 6

/**
 * Programme settings (issue 17, and the home of issue 18's): the weights of
 * the five match factors, with their effect on a sample of people before
 * saving; the reminders, the programme's length and the pending limit; and
 * the log of changes. Saved weights reach every device with the
 * next sync; the scoring runs there.
 */
export default function ProgrammeSettings() {
  useDocumentTitle('Programme Settings')
  const data = useMatchingData()
  const mutate = useMutations()
  const change = useChange()
  const settings = settingsOf(data?.settings)
  const saved = settings.matchWeights
  const [draft, setDraft] = useState<MatchWeights | null>(null)
  const [saving, setSaving] = useState(false)
  const weights = draft ?? saved
  const dirty = MATCH_FACTORS.some((f) => weights[f] !== saved[f])

  const save = async () => {
    setSaving(true)
    try {
      const outcome = await change(() => mutate.saveMatchWeights(weights), {
        success: 'The new weights apply to everyone’s recommendations from their next sync.',
        successTitle: 'Match weights saved',
      })
      if (outcome.kind === 'saved' || outcome.kind === 'waiting') setDraft(null)
    } finally {
      setSaving(false)
    }
  }

  if (!data) return <PageSpinner />
  return (
    <>
      <PageHeader
        title="Programme Settings"
        description="How your programme works. Changes apply to everyone and are logged."
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-5">
        <Card className="lg:col-span-2">
          <CardBody className="space-y-5">
            <div>
              <h2 className="text-base font-semibold text-slate-900 dark:text-white">
                Match weights
              </h2>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                A match score is the weighted mean of five factors. Only how the weights compare
                matters.
              </p>
            </div>
            {MATCH_FACTORS.map((factor) => (
              <div key={factor}>
                <div className="flex items-baseline justify-between gap-3">
                  <label
                    htmlFor={`weight-${factor}`}
                    className="text-sm font-medium text-slate-900 dark:text-white"
                  >
                    {MATCH_FACTOR_LABELS[factor]}
                  </label>
                  <output
                    htmlFor={`weight-${factor}`}
                    className="w-8 text-right text-sm font-semibold text-brand-700 tabular-nums dark:text-brand-300"
                  >
                    {weights[factor]}
                  </output>
                </div>
                <input
                  id={`weight-${factor}`}
                  type="range"
                  min={factor === 'interests' ? 1 : 0}
                  max={MATCH_WEIGHT_MAX}
                  step={1}
                  value={weights[factor]}
                  aria-describedby={`weight-${factor}-hint`}
                  onChange={(event) =>
                    setDraft({ ...weights, [factor]: Number(event.target.value) })
                  }
                  className="mt-2 w-full accent-brand-600"
                />
                <p
                  id={`weight-${factor}-hint`}
                  className="text-xs text-slate-600 dark:text-slate-400"
                >
                  {FACTOR_HINTS[factor]}
                </p>
              </div>
            ))}
            <div className="flex flex-wrap gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
              <Button onClick={save} busy={saving} disabled={!dirty}>
                Save weights
              </Button>
              <Button
                variant="secondary"
                onClick={() => setDraft(DEFAULT_MATCH_WEIGHTS)}
                disabled={MATCH_FACTORS.every((f) => weights[f] === DEFAULT_MATCH_WEIGHTS[f])}
              >
                <ArrowPathIcon className="size-4" aria-hidden="true" />
                Defaults
              </Button>
              {dirty && (
                <Button variant="ghost" onClick={() => setDraft(null)}>
                  Discard changes
                </Button>
              )}
            </div>
          </CardBody>
        </Card>
        <div className="space-y-6 lg:col-span-3">
          <Preview data={data} saved={saved} weights={weights} dirty={dirty} />
        </div>
      </div>
      <div className="mt-6 space-y-6">
        <ProgrammeRules saved={settings} />
        <ChangeLog version={data.settings?.updatedAt ?? null} />
      </div>
    </>
  )
}

type Data = NonNullable<ReturnType<typeof useMatchingData>>

/** Everyone's first three recommendations for a sample of people, now and with the draft weights. */
function Preview(props: {
  data: Data
  saved: MatchWeights
  weights: MatchWeights
  dirty: boolean
}) {
  const { data } = props
  const sample = useMemo(() => sampleOf(data.people), [data.people])
  const titleOf = useMemo(() => new Map(data.topics.map((t) => [t.id, t.subject])), [data.topics])
  const top = (me: MatchPerson, weights: MatchWeights) => {
    const input = {
      me,
      topics: data.topics,
      people: data.people,
      applied: new Set<string>(),
      dismissed: new Set<string>(),
      weights,
      limit: 3,
    }
    // Someone without a first place sees the topics that fit them as "in demand".
    const found = recommend(input)
    return (found.length > 0 ? found : inDemand(input)).map((r) => r.topic.id)
  }
  const rows = sample.map((person) => ({
    person,
    now: top(person, props.saved),
    next: props.dirty ? top(person, props.weights) : null,
  }))
  const changed = rows.filter((r) => r.next && r.next.join() !== r.now.join()).length
  return (
    <Card>
      <CardBody>
        <h2 className="text-base font-semibold text-slate-900 dark:text-white">
          Effect on a sample of people
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
          {props.dirty
            ? `With these weights, ${changed} of ${rows.length} people get different first three recommendations.`
            : 'Move a weight to see how these people’s first three recommendations change.'}
        </p>
        {rows.length === 0 ? (
          <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
            Nobody has interests in their profile yet.
          </p>
        ) : (
          <ul className="mt-4 divide-y divide-slate-100 dark:divide-slate-800" aria-label="Sample">
            {rows.map(({ person, now, next }) => (
              <li key={person.id} className="py-3 text-sm" data-testid="preview-person">
                <p className="font-medium text-slate-900 dark:text-white">
                  {(person as { full_name?: string }).full_name || person.id}
                </p>
                <ol className="mt-1 list-decimal space-y-0.5 pl-5 text-slate-700 dark:text-slate-300">
                  {(next ?? now).map((id, i) => (
                    <li key={id}>
                      {titleOf.get(id)}
                      {next && now[i] !== id && (
                        <span className="ml-2 text-xs font-medium text-amber-700 dark:text-amber-300">
                          {now.includes(id) ? 'moved' : 'new'}
                        </span>
                      )}
                    </li>
                  ))}
                  {(next ?? now).length === 0 && (
                    <li className="list-none text-slate-500 dark:text-slate-400">
                      Nothing fits their interests
                    </li>
                  )}
                </ol>
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  )
}

/** People with interests, those looking for a mentor first, in a stable order. */
function sampleOf<P extends MatchPerson>(people: readonly P[]): P[] {
  return people
    .filter((p) => p.interests.length > 0)
    .sort(
      (a, b) => Number(b.lookingForMentor) - Number(a.lookingForMentor) || a.id.localeCompare(b.id),
    )
    .slice(0, SAMPLE)
}
