import { ArrowLeftIcon } from '@heroicons/react/20/solid'
import { Link, useParams } from 'react-router-dom'
import { isTopicFull } from '../../../../shared/topic.ts'
import { RejectionReason } from '../../components/topic/rejection-reason.tsx'
import { RichText } from '../../components/topic/rich-text.tsx'
import { SyncState } from '../../components/topic/sync-state.tsx'
import { LinkButton } from '../../components/ui/button.tsx'
import { Card, CardBody } from '../../components/ui/card.tsx'
import { MessageCard, PageHeader } from '../../components/ui/page.tsx'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { paths } from '../../lib/paths.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { useSynced, useSyncedRow, useSyncStatus } from '../../sync/engine/react.ts'
import {
  readFeedbackOfTopic,
  readInvitationsOfTopic,
  readMyApplication,
} from '../../sync/engine/view.ts'
import { FeedbackSection } from './feedback-section.tsx'
import { MyApplication } from './my-application.tsx'
import { PeopleWhoMightFit } from './people-who-might-fit.tsx'
import { TopicActions } from './topic-actions.tsx'
import { TopicFacts, TopicSummary } from './topic-facts.tsx'

/** /topics/{id} (spec section 2): everything about one topic, and what the user may do with it. */
export default function TopicDetail() {
  const { id = '' } = useParams()
  const me = useCurrentUser()
  const topic = useSyncedRow('topics', id)
  const application = useSynced((db) => readMyApplication(db, id, me.id), [id, me.id])
  const feedback = useSynced((db) => readFeedbackOfTopic(db, id), [id])
  const invitations = useSynced((db) => readInvitationsOfTopic(db, id), [id])
  const { lastSyncedAt } = useSyncStatus()
  useDocumentTitle(topic ? topic.subject : topic === null ? 'Topic not found' : 'Topic')

  if (topic === undefined || (topic === null && lastSyncedAt === null)) return <PageSpinner />
  if (topic === null) {
    return (
      <MessageCard
        title="Topic not found"
        actions={<LinkButton to={paths.topics}>Browse Topics</LinkButton>}
      >
        It may have been removed, or it is not visible to you.
      </MessageCard>
    )
  }

  const myFeedback = feedback?.find((f) => f.user.id === me.id)
  return (
    <>
      <Link
        to={paths.topics}
        className="mb-4 inline-flex items-center gap-1 text-sm font-medium text-slate-600 hover:text-brand-700 dark:text-slate-400 dark:hover:text-brand-300"
      >
        <ArrowLeftIcon className="size-4" aria-hidden="true" />
        All topics
      </Link>
      <PageHeader
        title={topic.subject}
        actions={
          <TopicActions
            topic={topic}
            me={me}
            isAcceptedMentee={application?.status === 'accepted'}
            myFeedback={myFeedback}
          />
        }
      />
      <TopicSummary topic={topic} />
      <SyncState sync={topic.sync} className="mb-6" />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card>
            <CardBody>
              <h2 className="text-base font-semibold text-slate-900 dark:text-white">
                About this topic
              </h2>
              {topic.status === 'rejected' && topic.rejectionReason && (
                <RejectionReason
                  heading="Rejection Reason:"
                  reason={topic.rejectionReason}
                  className="mt-4"
                />
              )}
              {topic.description.trim() ? (
                <RichText html={topic.description} className="mt-4" />
              ) : (
                <p className="mt-4 text-slate-500 dark:text-slate-400">No description given.</p>
              )}
              {topic.interests.length > 0 && (
                <div className="mt-6 border-t border-slate-100 pt-4 dark:border-slate-800">
                  <h3 className="text-sm font-medium text-slate-700 dark:text-slate-300">
                    Interests
                  </h3>
                  <ul className="mt-2 flex flex-wrap gap-1.5" aria-label="Interests">
                    {topic.interests.map((interest) => (
                      <li
                        key={interest}
                        className="rounded-md bg-slate-100 px-2 py-1 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300"
                      >
                        #{interest}
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </CardBody>
          </Card>
          {topic.status === 'concluded' && (
            <FeedbackSection topic={topic} feedback={feedback ?? []} />
          )}
          {topic.mentorId === me.id && topic.status === 'approved' && !isTopicFull(topic) && (
            <PeopleWhoMightFit topic={topic} invitations={invitations ?? []} />
          )}
        </div>
        <aside className="space-y-6" aria-label="Topic details">
          <MyApplication
            topic={topic}
            me={me}
            application={application}
            invitation={invitations?.find((i) => i.menteeId === me.id)}
          />
          <TopicFacts topic={topic} />
        </aside>
      </div>
    </>
  )
}
