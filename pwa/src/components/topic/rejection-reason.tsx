import { cn } from '../ui/cn.ts'

/**
 * Why a topic or an application was rejected, under its heading (the spec
 * words it per screen: "Rejection Reason:" on the mentor's dashboard and the
 * topic page). Line breaks the reviewer typed are kept.
 *
 * @example
 * {topic.status === 'rejected' && topic.rejectionReason && (
 *   <RejectionReason heading="Rejection Reason:" reason={topic.rejectionReason} />
 * )}
 */
export function RejectionReason(props: { heading: string; reason: string; className?: string }) {
  return (
    <div className={cn('rounded-lg bg-red-50 p-3 text-sm dark:bg-red-950/40', props.className)}>
      <p className="font-semibold text-red-800 dark:text-red-300">{props.heading}</p>
      <p className="mt-1 whitespace-pre-line text-red-800 dark:text-red-200">{props.reason}</p>
    </div>
  )
}
