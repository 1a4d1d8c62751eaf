import { InboxIcon, UsersIcon } from '@heroicons/react/20/solid'
import { memo, useState } from 'react'
import { LocationLabel } from '../../components/topic/location-label.tsx'
import { RejectionReason } from '../../components/topic/rejection-reason.tsx'
import { SyncState } from '../../components/topic/sync-state.tsx'
import { TopicLink } from '../../components/topic/topic-link.tsx'
import { TopicStatusBadge } from '../../components/topic/topic-status-badge.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Card } from '../../components/ui/card.tsx'
import type { SyncApplication, SyncTopic } from '../../sync/engine/db.ts'
import type { Merged } from '../../sync/engine/overlay.ts'
import { ApplicationRow } from './application-row.tsx'
import { RejectDialog } from './reject-dialog.tsx'

type MentorTopicCardProps = {
  topic: Merged<SyncTopic>
  applications: Merged<SyncApplication>[]
}

/** The same rows, read anew: plain data from one reader, so their JSON is written alike. */
function sameCard(a: MentorTopicCardProps, b: MentorTopicCardProps): boolean {
  if (a.topic === b.topic && a.applications === b.applications) return true
  return JSON.stringify(a) === JSON.stringify(b)
}

/** The dashboard shows "both" as "Online & In-Person" and any other location as its raw value. */
const RAW_LOCATIONS = { online: 'online', 'in-person': 'in-person' }

/**
 * One topic the user mentors: its state, and the applications to it with
 * Accept and Reject (read with the topics, so the card arrives whole).
 * Drawn again only when what it shows changed (sameCard): a live read
 * answers every topic anew after any change, and a new application to one
 * topic should not redraw the others (issue 20).
 */
export const MentorTopicCard = memo(function MentorTopicCard(props: MentorTopicCardProps) {
  const { topic, applications } = props
  // A refused decision targets the application and the topic: it is told once, on the application.
  const toldBelow = new Set(applications.flatMap((a) => a.sync.rejected.map((r) => r.mutationId)))
  const topicSync = {
    ...topic.sync,
    rejected: topic.sync.rejected.filter((r) => !toldBelow.has(r.mutationId)),
  }
  const [rejecting, setRejecting] = useState<Merged<SyncApplication> | null>(null)
  const headingId = `topic-${topic.id}`

  return (
    <Card className="overflow-hidden" aria-labelledby={headingId} role="article">
      <div className="flex flex-col gap-3 p-5 sm:flex-row sm:items-start sm:justify-between sm:p-6">
        <div className="min-w-0 space-y-2">
          <h3 id={headingId} className="text-lg font-semibold text-slate-900 dark:text-white">
            <TopicLink topic={topic} />
          </h3>
          <LocationLabel location={topic.location} labels={RAW_LOCATIONS} />
          <SyncState sync={topicSync} />
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone="brand" title="Mentees">
            <UsersIcon className="size-3.5" aria-hidden="true" />
            <span className="sr-only">Mentees: </span>
            {`${topic.currentMentees}/${topic.maxMentees}`}
          </Badge>
          <TopicStatusBadge status={topic.status} />
        </div>
      </div>

      {topic.status === 'rejected' && topic.rejectionReason && (
        <RejectionReason
          heading="Rejection Reason:"
          reason={topic.rejectionReason}
          className="mx-5 mb-5 sm:mx-6"
        />
      )}

      <div className="border-t border-slate-200 bg-slate-50/70 px-5 py-4 sm:px-6 dark:border-slate-800 dark:bg-slate-950/40">
        <h4 className="text-sm font-semibold text-slate-700 dark:text-slate-300">
          Applications
          {applications.length > 0 && (
            <span className="ml-1.5 font-normal text-slate-500 dark:text-slate-400">
              ({applications.length})
            </span>
          )}
        </h4>
        {applications.length === 0 ? (
          <p className="mt-2 flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
            <InboxIcon className="size-4 text-slate-400" aria-hidden="true" />
            No applications yet
          </p>
        ) : (
          <ul className="mt-1 divide-y divide-slate-200 dark:divide-slate-800">
            {applications.map((application) => (
              <ApplicationRow
                key={application.id}
                application={application}
                topic={topic}
                onReject={() => setRejecting(application)}
              />
            ))}
          </ul>
        )}
      </div>
      <RejectDialog
        application={rejecting}
        subject={topic.subject}
        onClose={() => setRejecting(null)}
      />
    </Card>
  )
}, sameCard)
