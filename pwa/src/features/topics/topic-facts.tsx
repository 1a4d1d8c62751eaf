import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { LocationLabel } from '../../components/topic/location-label.tsx'
import { MenteeCount } from '../../components/topic/mentee-count.tsx'
import { SeniorityBadges } from '../../components/topic/seniority-badges.tsx'
import { TopicStatusBadge } from '../../components/topic/topic-status-badge.tsx'
import { Avatar } from '../../components/ui/avatar.tsx'
import { Card, CardBody } from '../../components/ui/card.tsx'
import { paths } from '../../lib/paths.ts'
import type { SyncTopic } from '../../sync/engine/db.ts'
import { LIST_STATUS_LABELS } from './topic-state.tsx'

/** The detail page's facts: status, mentor, mentees, levels, location. */
export function TopicFacts(props: { topic: SyncTopic }) {
  const { topic } = props
  return (
    <Card>
      <CardBody>
        <h2 className="text-base font-semibold text-slate-900 dark:text-white">Details</h2>
        <dl className="mt-4 space-y-4 text-sm">
          <Fact term="Status">
            <TopicStatusBadge status={topic.status} labels={LIST_STATUS_LABELS} />
          </Fact>
          <Fact term="Mentor">
            <Link
              to={paths.profile(topic.mentor.username)}
              className="group inline-flex max-w-full items-center gap-2"
            >
              <Avatar user={topic.mentor} size="sm" />
              <span className="min-w-0">
                <span className="block truncate font-medium text-slate-900 group-hover:text-brand-700 dark:text-white dark:group-hover:text-brand-300">
                  {topic.mentor.full_name || topic.mentor.username}
                </span>
                <span className="block truncate text-xs text-slate-500 dark:text-slate-400">
                  @{topic.mentor.username}
                </span>
              </span>
            </Link>
          </Fact>
          <Fact term="Mentees required">
            <span className="font-medium text-slate-900 dark:text-white">{topic.maxMentees}</span>
          </Fact>
          <Fact term="Enrolled">
            <MenteeCount current={topic.currentMentees} max={topic.maxMentees} />
          </Fact>
          <Fact term="Seniority">
            <SeniorityBadges levels={topic.seniorityRequired} />
          </Fact>
          <Fact term="Location">
            <LocationLabel location={topic.location} />
          </Fact>
        </dl>
      </CardBody>
    </Card>
  )
}

/** Phones and tablets: the key facts under the title, before the description pushes them down. */
export function TopicSummary(props: { topic: SyncTopic }) {
  const { topic } = props
  return (
    <div className="-mt-2 mb-6 flex flex-wrap items-center gap-x-4 gap-y-2 lg:hidden">
      <TopicStatusBadge status={topic.status} labels={LIST_STATUS_LABELS} />
      <LocationLabel location={topic.location} />
      <MenteeCount current={topic.currentMentees} max={topic.maxMentees} />
    </div>
  )
}

function Fact(props: { term: string; children: ReactNode }) {
  return (
    <div className="space-y-1.5">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">
        {props.term}
      </dt>
      <dd>{props.children}</dd>
    </div>
  )
}
