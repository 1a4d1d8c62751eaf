import { APPLICATION_STATUS_LABELS } from '../../../../shared/application.ts'
import type { ApplicationStatus } from '../../../../shared/constants.ts'
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx'

const TONES: Record<ApplicationStatus, BadgeTone> = {
  pending: 'warning',
  accepted: 'success',
  rejected: 'danger',
}

/** The mentor sees "Accepted"; the mentee sees the spec's "Active" (`asMentee`). */
const MENTOR_LABELS: Record<ApplicationStatus, string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  rejected: 'Rejected',
}

export function ApplicationStatusBadge(props: {
  status: ApplicationStatus
  asMentee?: boolean
  className?: string
}) {
  const labels = props.asMentee ? APPLICATION_STATUS_LABELS : MENTOR_LABELS
  return (
    <Badge tone={TONES[props.status]} className={props.className}>
      {labels[props.status]}
    </Badge>
  )
}
