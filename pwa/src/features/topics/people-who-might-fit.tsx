import { UserPlusIcon } from '@heroicons/react/20/solid'
import { useMemo, useState } from 'react'
import { Link } from 'react-router-dom'
import { reasonLine } from '../../../../shared/matching.ts'
import { useCandidates } from '../../components/matching/use-matching.ts'
import { Avatar } from '../../components/ui/avatar.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardBody } from '../../components/ui/card.tsx'
import { paths } from '../../lib/paths.ts'
import { useChange } from '../../lib/use-change.ts'
import type { SyncInvitation, SyncTopic, SyncUser } from '../../sync/engine/db.ts'
import type { Merged } from '../../sync/engine/overlay.ts'
import { useMutations, useSynced } from '../../sync/engine/react.ts'
import { readApplicationsOfTopic } from '../../sync/engine/view.ts'

/** How many people show before "Show more". */
const FIRST = 5
const MOST = 20

/**
 * "People who might fit" (issue 17), on a topic of the mentor's that has
 * room: people who said they are looking for a mentor, whose interests and
 * seniority fit, best first, with the reasons; Invite asks one to apply (a
 * notification), once per person and topic. Computed on this device from
 * everyone's public profile, so it works offline; the invitation waits in
 * the outbox like every change.
 */
export function PeopleWhoMightFit(props: {
  topic: Merged<SyncTopic>
  invitations: Merged<SyncInvitation>[]
}) {
  const { topic } = props
  const [showAll, setShowAll] = useState(false)
  const applications = useSynced((db) => readApplicationsOfTopic(db, topic.id), [topic.id])
  const applied = useMemo(
    () => new Set((applications ?? []).map((a) => a.mentee.id)),
    [applications],
  )
  const candidates = useCandidates(topic, applied, MOST)
  const invitationOf = new Map(props.invitations.map((i) => [i.menteeId, i]))
  const shown = (candidates ?? []).slice(0, showAll ? MOST : FIRST)

  return (
    <Card>
      <CardBody>
        <section aria-labelledby="fit-heading">
          <h2 id="fit-heading" className="text-base font-semibold text-slate-900 dark:text-white">
            People who might fit
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            People looking for a mentor whose interests and seniority fit this topic. Invite one and
            they are asked to apply.
          </p>
          {candidates === undefined ? (
            <p className="mt-4 text-sm text-slate-500 dark:text-slate-400">Looking…</p>
          ) : candidates.length === 0 ? (
            <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
              Nobody looking for a mentor fits this topic yet. Adding interests to the topic can
              widen the circle.
            </p>
          ) : (
            <ul
              className="mt-4 divide-y divide-slate-100 dark:divide-slate-800"
              aria-label="People who might fit"
            >
              {shown.map((c) => (
                <Candidate
                  key={c.person.id}
                  topic={topic}
                  person={c.person}
                  score={c.score}
                  reasons={c.reasons}
                  invitation={invitationOf.get(c.person.id)}
                />
              ))}
            </ul>
          )}
          {!showAll && (candidates?.length ?? 0) > FIRST && (
            <Button variant="ghost" size="sm" className="mt-2" onClick={() => setShowAll(true)}>
              Show more
            </Button>
          )}
        </section>
      </CardBody>
    </Card>
  )
}

function Candidate(props: {
  topic: Merged<SyncTopic>
  person: Merged<SyncUser>
  score: number
  reasons: string[]
  invitation: Merged<SyncInvitation> | undefined
}) {
  const { topic, person, invitation } = props
  const mutate = useMutations()
  const change = useChange()
  const [busy, setBusy] = useState(false)
  const name = person.full_name || person.username
  const invite = async () => {
    setBusy(true)
    try {
      await change(() => mutate.inviteToTopic(topic.id, person.id), {
        success: `${name} is invited to apply to “${topic.subject}”.`,
        successTitle: 'Invitation sent',
      })
    } finally {
      setBusy(false)
    }
  }
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3" data-testid="candidate">
      <Avatar user={person} size="sm" />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-baseline gap-x-2">
          <Link
            to={paths.profile(person.username)}
            className="truncate font-medium text-slate-900 hover:text-brand-700 dark:text-white dark:hover:text-brand-300"
          >
            {name}
          </Link>
          <span className="text-xs font-medium text-brand-700 dark:text-brand-300">
            {Math.round(props.score * 100)}% fit
          </span>
        </p>
        <p className="text-sm text-slate-600 dark:text-slate-400">{reasonLine(props.reasons)}</p>
      </div>
      {invitation ? (
        invitation.status === 'declined' ? (
          <Badge tone="neutral">Declined</Badge>
        ) : (
          <Badge tone="brand">Invited</Badge>
        )
      ) : (
        <Button
          size="sm"
          variant="secondary"
          onClick={invite}
          busy={busy}
          aria-label={`Invite ${name} to apply`}
        >
          <UserPlusIcon className="size-4" aria-hidden="true" />
          Invite
        </Button>
      )}
    </li>
  )
}
