import { EditorState, TextSelection, type Transaction } from 'prosemirror-state'
import { EditorView } from 'prosemirror-view'
import { useEffect, useRef, useState } from 'react'
import { cn } from '../ui/cn.ts'
import { parseDescription, serializeDescription } from './html.ts'
import { linkAt, removeLink, setLink } from './link.ts'
import { LinkDialog } from './link-dialog.tsx'
import { editorPlugins } from './plugins.ts'
import { EditorToolbar } from './toolbar.tsx'

/** The classes of the editable area: the rich-text look, ProseMirror's needs, the empty hint. */
const CONTENT_CLASSES = cn(
  'prose-pw min-h-40 px-3.5 py-3 text-sm whitespace-break-spaces break-words focus:outline-none sm:text-base',
  '[font-variant-ligatures:none] [&_pre]:whitespace-pre-wrap [&_li]:relative',
  '[&_.pw-placeholder]:before:pointer-events-none [&_.pw-placeholder]:before:float-left [&_.pw-placeholder]:before:h-0',
  '[&_.pw-placeholder]:before:text-slate-500 [&_.pw-placeholder]:before:content-[attr(data-placeholder)] dark:[&_.pw-placeholder]:before:text-slate-400',
)

type LinkTarget = { from: number; to: number; href: string | null }

/** The editable area's attributes: a named, multi-line text box. */
function contentAttributes(props: {
  id?: string
  labelledBy: string
  describedBy?: string
  invalid?: boolean
}): Record<string, string> {
  return {
    ...(props.id ? { id: props.id } : {}),
    role: 'textbox',
    'aria-multiline': 'true',
    'aria-labelledby': props.labelledBy,
    ...(props.describedBy ? { 'aria-describedby': props.describedBy } : {}),
    ...(props.invalid ? { 'aria-invalid': 'true' } : {}),
    class: CONTENT_CLASSES,
  }
}

/**
 * The rich-text editor (ProseMirror): a toolbar, the editable area and the
 * link dialog. Uncontrolled: `initialHtml` is read once when it mounts;
 * `onChange` gets the description's HTML (what the server stores unchanged)
 * after every change. The editable area is named by `labelledBy` (the field's
 * label) and described by `describedBy` (hint or error).
 */
export function RichTextEditor(props: {
  initialHtml?: string
  onChange: (html: string) => void
  labelledBy: string
  describedBy?: string
  invalid?: boolean
  placeholder?: string
  id?: string
}) {
  const mount = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | null>(null)
  const [state, setState] = useState<EditorState | null>(null)
  const [linkOpen, setLinkOpen] = useState(false)
  // What the link dialog works on: the selection when it opened, and the URL of a link there.
  const [linkTarget, setLinkTarget] = useState<LinkTarget>({ from: 0, to: 0, href: null })
  const openLink = useRef(() => {})
  openLink.current = () => {
    const v = view.current
    if (!v) return
    const { from, to } = selectionNow(v)
    setLinkTarget({ from, to, href: linkAt(v.state)?.href ?? null })
    setLinkOpen(true)
  }
  const onChange = useRef(props.onChange)
  onChange.current = props.onChange

  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor is created once per mount; later props are read through refs
  useEffect(() => {
    if (!mount.current) return
    const created = new EditorView(mount.current, {
      state: EditorState.create({
        doc: parseDescription(props.initialHtml ?? ''),
        plugins: editorPlugins({
          openLink: () => openLink.current(),
          placeholder: props.placeholder,
        }),
      }),
      attributes: contentAttributes(props),
      dispatchTransaction(tr) {
        const next = created.state.apply(tr)
        created.updateState(next)
        setState(next)
        if (tr.docChanged) onChange.current(serializeDescription(next.doc))
      },
    })
    view.current = created
    setState(created.state)
    return () => {
      created.destroy()
      view.current = null
    }
  }, [])

  // The editable area follows the field's hint or error and its invalid state.
  const { id, labelledBy, describedBy, invalid } = props
  useEffect(() => {
    view.current?.setProps({
      attributes: contentAttributes({ id, labelledBy, describedBy, invalid }),
    })
  }, [id, labelledBy, describedBy, invalid])

  /** Runs `change` on the selection the dialog was opened for (focus moved away meanwhile). */
  function onLinkTarget(change: (state: EditorState) => Transaction) {
    const v = view.current
    setLinkOpen(false)
    if (!v) return
    const { from, to } = linkTarget
    v.dispatch(v.state.tr.setSelection(TextSelection.create(v.state.doc, from, to)))
    v.dispatch(change(v.state))
  }

  return (
    <div
      className={cn(
        // A border, not an inset ring: the toolbar's background would paint over an inset shadow.
        'overflow-hidden rounded-lg border border-slate-300 bg-white shadow-sm focus-within:border-brand-600 focus-within:ring-1 focus-within:ring-brand-600 dark:border-slate-700 dark:bg-slate-950 dark:focus-within:border-brand-400 dark:focus-within:ring-brand-400',
        props.invalid && 'border-red-500 dark:border-red-500',
      )}
    >
      {state && (
        <EditorToolbar
          state={state}
          label="Formatting"
          onLink={() => openLink.current()}
          run={(command) => {
            const v = view.current
            if (!v) return
            command(v.state, v.dispatch, v)
            v.focus()
          }}
        />
      )}
      <div ref={mount} />
      <LinkDialog
        open={linkOpen}
        current={linkTarget.href}
        onClose={() => setLinkOpen(false)}
        onClosed={() => view.current?.focus()}
        onApply={(href) => onLinkTarget((state) => setLink(state, href))}
        onRemove={() => onLinkTarget(removeLink)}
      />
    </div>
  )
}

/**
 * The selection as the user sees it. ProseMirror learns of a selection made
 * with the keyboard from the browser's `selectionchange` event, which comes a
 * moment later; a shortcut pressed right after Shift+Arrow would otherwise
 * link the old (empty) selection.
 */
function selectionNow(view: EditorView): { from: number; to: number } {
  const dom = view.dom.ownerDocument.getSelection()
  const { anchorNode, focusNode } = dom ?? {}
  if (
    dom &&
    anchorNode &&
    focusNode &&
    view.dom.contains(anchorNode) &&
    view.dom.contains(focusNode)
  ) {
    try {
      const anchor = view.posAtDOM(anchorNode, dom.anchorOffset)
      const head = view.posAtDOM(focusNode, dom.focusOffset)
      return { from: Math.min(anchor, head), to: Math.max(anchor, head) }
    } catch {
      // A node ProseMirror does not map: its own idea of the selection is the best there is.
    }
  }
  return view.state.selection
}
