import { ChatBubbleLeftRightIcon, ClockIcon } from '@heroicons/react/24/outline'
import { type ReactNode, useEffect, useState } from 'react'
import { Link } from 'react-router-dom'
import type { CheckInTopic, WaitingApplication } from '../../../../shared/follow-up.ts'
import { Badge } from '../../components/ui/badge.tsx'
import { Card } from '../../components/ui/card.tsx'
import { paths } from '../../lib/paths.ts'
import { useSyncStatus } from '../../sync/engine/react.ts'
import { type FollowUpState, fetchFollowUp } from './follow-up-api.ts'

const OFFLINE_TEXT = 'Connect to the internet to see these lists.'

/**
 * "Waiting for an answer" and "Needs a check-in" (issue 18), above the
 * review list. Each list has a fixed height whatever its state (skeleton,
 * offline, empty, rows that scroll), so nothing below moves as it loads.
 * Read again when the connection comes back.
 */
export function FollowUpLists() {
  const { online } = useSyncStatus()
  const [state, setState] = useState<FollowUpState>({ kind: 'loading' })
  useEffect(() => {
    let live = true
    if (!online) {
      setState({ kind: 'offline' })
      return
    }
    setState((s) => (s.kind === 'ready' ? s : { kind: 'loading' }))
    void fetchFollowUp().then((next) => {
      if (live) setState(next)
    })
    return () => {
      live = false
    }
  }, [online])
  const lists = state.kind === 'ready' ? state.lists : null
  return (
    <div className="mb-8 grid gap-4 lg:grid-cols-2">
      <FollowUpSection
        id="waiting-for-answer"
        title="Waiting for an answer"
        icon={<ClockIcon className="size-5" aria-hidden="true" />}
        state={state}
        count={lists?.waitingForAnswer.length}
        empty="Nothing is waiting."
      >
        {lists?.waitingForAnswer.map((row) => (
          <WaitingRow key={row.applicationId} row={row} />
        ))}
      </FollowUpSection>
      <FollowUpSection
        id="needs-check-in"
        title="Needs a check-in"
        icon={<ChatBubbleLeftRightIcon className="size-5" aria-hidden="true" />}
        state={state}
        count={lists?.needsCheckIn.length}
        empty="Every started topic is moving."
      >
        {lists?.needsCheckIn.map((row) => (
          <CheckInRow key={row.topicId} row={row} />
        ))}
      </FollowUpSection>
    </div>
  )
}

function FollowUpSection(props: {
  id: string
  title: string
  icon: ReactNode
  state: FollowUpState
  count: number | undefined
  empty: string
  children: ReactNode
}) {
  const { state } = props
  const headingId = `${props.id}-heading`
  return (
    <Card className="overflow-hidden" data-testid={props.id}>
      <div className="flex h-12 items-center gap-2 border-b border-slate-200 px-4 dark:border-slate-800">
        <span className="text-brand-600 dark:text-brand-400">{props.icon}</span>
        <h2 id={headingId} className="font-semibold text-slate-900 dark:text-white">
          {props.title}
        </h2>
        {props.count !== undefined && props.count > 0 && (
          <Badge tone="warning" className="ml-auto">
            {props.count}
          </Badge>
        )}
      </div>
      {/* One height for every state: the list scrolls inside it. */}
      <section
        className="h-52 overflow-y-auto overscroll-contain"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
        tabIndex={0}
        aria-labelledby={headingId}
        aria-busy={state.kind === 'loading'}
      >
        {state.kind === 'loading' ? (
          <Skeleton />
        ) : state.kind === 'offline' || state.kind === 'error' ? (
          <Quiet>{state.kind === 'offline' ? OFFLINE_TEXT : state.detail}</Quiet>
        ) : props.count === 0 ? (
          <Quiet>{props.empty}</Quiet>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">{props.children}</ul>
        )}
      </section>
    </Card>
  )
}

function Quiet(props: { children: ReactNode }) {
  return (
    <p className="flex h-full items-center justify-center px-4 text-center text-sm text-slate-600 dark:text-slate-400">
      {props.children}
    </p>
  )
}

function Skeleton() {
  return (
    <div className="space-y-4 p-4" aria-hidden="true">
      {[0, 1, 2].map((i) => (
        <div key={i} className="animate-pulse space-y-2">
          <div className="h-4 w-2/3 rounded bg-slate-200 dark:bg-slate-800" />
          <div className="h-3 w-1/2 rounded bg-slate-100 dark:bg-slate-800/60" />
        </div>
      ))}
    </div>
  )
}

const nameOf = (p: { username: string; full_name: string }) => p.full_name || p.username
const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`

function Row(props: { topicId: string; subject: string; children: ReactNode }) {
  return (
    <li className="space-y-1 px-4 py-3 text-sm">
      <Link
        to={paths.topic(props.topicId)}
        className="font-medium break-words text-slate-900 hover:text-brand-700 hover:underline dark:text-white dark:hover:text-brand-300"
      >
        {props.subject}
      </Link>
      {props.children}
    </li>
  )
}

function WaitingRow(props: { row: WaitingApplication }) {
  const { row } = props
  return (
    <Row topicId={row.topicId} subject={row.subject}>
      <p className="text-slate-600 dark:text-slate-400">
        {nameOf(row.mentee)} applied to {nameOf(row.mentor)}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-slate-700 tabular-nums dark:text-slate-300">
          Waiting {days(row.daysWaiting)}
        </span>
        {row.mentorReminded && <Badge tone="info">Mentor reminded</Badge>}
      </div>
    </Row>
  )
}

function CheckInRow(props: { row: CheckInTopic }) {
  const { row } = props
  const mentees = row.mentees.map(nameOf).join(', ')
  return (
    <Row topicId={row.topicId} subject={row.subject}>
      <p className="text-slate-600 dark:text-slate-400">
        {nameOf(row.mentor)}
        {mentees && ` with ${mentees}`}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-slate-700 tabular-nums dark:text-slate-300">
          Quiet for {days(row.daysQuiet)}
        </span>
        {row.needsHelp && <Badge tone="danger">Asked for help</Badge>}
      </div>
    </Row>
  )
}
