import { memo } from 'react'
import { Link } from 'react-router-dom'
import type { PendingLimit } from '../../../../shared/application.ts'
import type { User } from '../../../../shared/user.ts'
import { LocationLabel } from '../../components/topic/location-label.tsx'
import { MenteeCount } from '../../components/topic/mentee-count.tsx'
import { RichText } from '../../components/topic/rich-text.tsx'
import { SeniorityBadges } from '../../components/topic/seniority-badges.tsx'
import { Avatar } from '../../components/ui/avatar.tsx'
import { Card } from '../../components/ui/card.tsx'
import { paths } from '../../lib/paths.ts'
import type { SyncApplication, SyncTopic } from '../../sync/engine/db.ts'
import type { Merged } from '../../sync/engine/overlay.ts'
import { Highlight, MatchExcerpt } from './highlight.tsx'
import { textOfHtml } from './topic-search.ts'
import { TopicState } from './topic-state.tsx'

type TopicCardProps = {
  topic: Merged<SyncTopic>
  me: User
  application: Merged<SyncApplication> | undefined
  pendingLimit?: PendingLimit | undefined
  terms?: ReadonlySet<string> | undefined
  matchedText?: boolean
}

/**
 * One topic in the list grid: subject, mentor, three lines of description,
 * location, levels, mentees, and the state area at the foot. Found by a
 * search (`terms`, the words it matched), the matched words are marked, and
 * a match in the description shows the text around it instead of its start.
 */
export const TopicCard = memo(function TopicCard(props: TopicCardProps) {
  const { topic, terms } = props
  const mentorName = topic.mentor.full_name || topic.mentor.username
  const matchedInterests =
    terms && terms.size > 0
      ? topic.interests.filter((i) =>
          i.split(/[^\p{L}\p{N}]+/u).some((w) => terms.has(w.toLowerCase())),
        )
      : []
  return (
    <Card className="flex h-full flex-col" data-testid="topic-card">
      <article className="flex flex-1 flex-col gap-4 p-5" aria-labelledby={`topic-${topic.id}`}>
        <header className="space-y-3">
          <h2 id={`topic-${topic.id}`} className="text-lg leading-snug font-semibold">
            <Link
              to={paths.topic(topic.id)}
              className="text-slate-900 hover:text-brand-700 dark:text-white dark:hover:text-brand-300"
            >
              <Highlight text={topic.subject} terms={terms} />
            </Link>
          </h2>
          <Link
            to={paths.profile(topic.mentor.username)}
            className="group inline-flex max-w-full items-center gap-2 text-sm"
          >
            <Avatar user={topic.mentor} size="xs" />
            <span className="truncate font-medium text-slate-700 group-hover:text-brand-700 dark:text-slate-300 dark:group-hover:text-brand-300">
              <Highlight text={mentorName} terms={terms} />
            </span>
          </Link>
        </header>
        {terms && props.matchedText ? (
          <MatchExcerpt text={textOfHtml(topic.description)} terms={terms} />
        ) : (
          topic.description.trim() !== '' && <RichText html={topic.description} clamp />
        )}
        {matchedInterests.length > 0 && (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Interests: <Highlight text={matchedInterests.join(' · ')} terms={terms} />
          </p>
        )}
        <div className="mt-auto space-y-3">
          <SeniorityBadges levels={topic.seniorityRequired} />
          <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
            <LocationLabel location={topic.location} />
            <MenteeCount current={topic.currentMentees} max={topic.maxMentees} />
          </div>
        </div>
      </article>
      <TopicCardFoot {...props} />
    </Card>
  )
})

/** The state area; hidden (empty:) when TopicState has nothing to say. */
function TopicCardFoot(props: TopicCardProps) {
  return (
    <div className="border-t border-slate-100 px-5 py-3 empty:hidden dark:border-slate-800">
      <TopicState {...props} />
    </div>
  )
}
