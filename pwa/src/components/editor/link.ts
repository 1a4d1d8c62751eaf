import type { EditorState, Transaction } from 'prosemirror-state'
import { LINK_SCHEMES } from '../../../../shared/constants.ts'
import { isAllowedLinkUrl, urlScheme } from '../../../../shared/links.ts'
import { editorSchema as schema } from './schema.ts'

export type LinkCheck = { ok: true; href: string } | { ok: false; error: string }

const LINK_SCHEME_ERROR = `Links can only use these schemes: ${LINK_SCHEMES.join(', ')}.`

/**
 * What the link dialog does with a typed URL (spec section 5): only the
 * allowed schemes pass. A bare address such as "example.com/page" is read as
 * https. Spaces and quote or angle characters are percent-encoded, so the
 * stored href is the one the server keeps.
 *
 * @example
 * checkLinkUrl('javascript:alert(1)') // { ok: false, error: 'Links can only use…' }
 * checkLinkUrl('example.com')         // { ok: true, href: 'https://example.com' }
 */
export function checkLinkUrl(typed: string): LinkCheck {
  const value = typed.trim()
  if (value === '') return { ok: false, error: 'Enter a URL' }
  const withScheme =
    urlScheme(value) === null && /^[\w-]+(\.[\w-]+)+([/?#:]|$)/.test(value)
      ? `https://${value}`
      : value
  if (!isAllowedLinkUrl(withScheme)) return { ok: false, error: LINK_SCHEME_ERROR }
  const href = withScheme.replace(
    /[\s"<>`]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  )
  return { ok: true, href }
}

/** The link around the cursor or selection: its range and URL, or null. */
export function linkAt(state: EditorState): { from: number; to: number; href: string } | null {
  const type = schema.marks.link
  const { $from, from, to, empty } = state.selection
  // With a cursor, a link ending or starting right there counts too (links do not grow as you
  // type at their edges, but that is where one goes to edit them).
  const around = empty
    ? [$from.marks(), $from.nodeAfter?.marks ?? [], $from.nodeBefore?.marks ?? []]
    : [$from.nodeAfter?.marks ?? []]
  const mark = around.map((marks) => type.isInSet(marks)).find(Boolean)
  if (!mark) return null
  // The runs of text in this textblock that carry this very link; answer the one holding the selection.
  const runs: { from: number; to: number }[] = []
  const start = $from.start()
  $from.parent.forEach((child, offset) => {
    if (!mark.isInSet(child.marks)) return
    const pos = start + offset
    const last = runs.at(-1)
    if (last && last.to === pos) last.to = pos + child.nodeSize
    else runs.push({ from: pos, to: pos + child.nodeSize })
  })
  const run = runs.find((r) => r.from <= from && r.to >= to)
  return run ? { ...run, href: String(mark.attrs.href) } : null
}

/**
 * Sets a link on the selection (or on the link at the cursor). With nothing
 * selected, the URL itself is inserted as the link's text.
 */
export function setLink(state: EditorState, href: string): Transaction {
  const type = schema.marks.link
  const existing = linkAt(state)
  const { from, to, empty } = state.selection
  const tr = state.tr
  if (existing) {
    tr.removeMark(existing.from, existing.to, type)
    tr.addMark(existing.from, existing.to, type.create({ href }))
  } else if (empty) {
    tr.insert(
      from,
      schema.text(href, [
        ...(state.storedMarks ?? state.selection.$from.marks()),
        type.create({ href }),
      ]),
    )
  } else {
    tr.addMark(from, to, type.create({ href }))
  }
  return tr.scrollIntoView()
}

/** Removes the link at the cursor (or the links in the selection), keeping the text. */
export function removeLink(state: EditorState): Transaction {
  const existing = linkAt(state)
  const { from, to } = existing ?? state.selection
  return state.tr.removeMark(from, to, schema.marks.link).scrollIntoView()
}
