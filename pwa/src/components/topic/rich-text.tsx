import { useMemo } from 'react'
import { cn } from '../ui/cn.ts'
import { sanitizeDescription } from './sanitize-description.ts'

/** On cards: three lines of running text, headings no bigger than the text around them. */
const CLAMPED =
  'line-clamp-3 text-sm [&_h1]:text-sm [&_h2]:text-sm [&_h3]:text-sm [&_h4]:text-sm [&_h5]:text-sm [&_h6]:text-sm [&>*+*]:mt-1 [&_pre]:p-2'

/**
 * A topic description, rendered as HTML after sanitising it again (the
 * server's allow-list; links open in a new tab). `clamp` shows at most three
 * lines, for cards: a preview, whose links a pointer can follow but the Tab
 * key skips (those past the third line are hidden, and a focused hidden link
 * would draw over the card; the topic's page has them all).
 *
 * @example
 * <RichText html={topic.description} clamp />
 */
export function RichText(props: { html: string; clamp?: boolean; className?: string }) {
  const safe = useMemo(() => {
    const html = sanitizeDescription(props.html)
    // DOMPurify writes every link as `<a href=…`: the attribute goes in front of the others.
    return props.clamp ? html.replaceAll('<a ', '<a tabindex="-1" ') : html
  }, [props.html, props.clamp])
  return (
    <div
      className={cn('prose-pw', props.clamp && CLAMPED, props.className)}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with DOMPurify to the editor's subset just above
      dangerouslySetInnerHTML={{ __html: safe }}
    />
  )
}
