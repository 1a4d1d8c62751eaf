import { excerptAround, markTerms } from './topic-search.ts'

/** `text` with the words a search matched marked. */
export function Highlight(props: { text: string; terms: ReadonlySet<string> | undefined }) {
  if (!props.terms || props.terms.size === 0) return <>{props.text}</>
  return (
    <>
      {markTerms(props.text, props.terms).map((part) =>
        part.marked ? (
          <mark
            key={part.start}
            className="rounded-sm bg-amber-200 px-0.5 text-inherit dark:bg-amber-400/30"
          >
            {part.text}
          </mark>
        ) : (
          <span key={part.start}>{part.text}</span>
        ),
      )}
    </>
  )
}

/** The sentence around the first matched word of a description, marked: why a topic was found. */
export function MatchExcerpt(props: { text: string; terms: ReadonlySet<string> }) {
  return (
    <p className="line-clamp-3 text-sm text-slate-700 dark:text-slate-300">
      <Highlight text={excerptAround(props.text, props.terms)} terms={props.terms} />
    </p>
  )
}
