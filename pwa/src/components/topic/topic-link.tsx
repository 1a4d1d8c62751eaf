import { Link } from 'react-router-dom'
import { paths } from '../../lib/paths.ts'

/** A topic's subject as the link to its page, as the cards' headings show it. */
export function TopicLink(props: { topic: { id: string; subject: string } }) {
  return (
    <Link
      to={paths.topic(props.topic.id)}
      className="rounded-sm break-words hover:text-brand-700 hover:underline dark:hover:text-brand-300"
    >
      {props.topic.subject}
    </Link>
  )
}
