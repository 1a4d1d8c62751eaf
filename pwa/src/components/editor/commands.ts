import { chainCommands, exitCode, setBlockType, toggleMark, wrapIn } from 'prosemirror-commands'
import { redo, undo } from 'prosemirror-history'
import type { MarkType, NodeType } from 'prosemirror-model'
import { liftListItem, sinkListItem, splitListItem, wrapInList } from 'prosemirror-schema-list'
import type { Command, EditorState } from 'prosemirror-state'
import { editorSchema as schema } from './schema.ts'

/** Whether a mark is on at the cursor (stored marks count) or over the whole selection. */
export function isMarkActive(state: EditorState, type: MarkType): boolean {
  const { from, $from, to, empty } = state.selection
  if (empty) return Boolean(type.isInSet(state.storedMarks ?? $from.marks()))
  return state.doc.rangeHasMark(from, to, type)
}

/** Whether the selection sits in a block of this type (with these attributes), at any depth. */
export function isBlockActive(
  state: EditorState,
  type: NodeType,
  attrs: Record<string, unknown> = {},
): boolean {
  const { $from, to } = state.selection
  for (let depth = $from.depth; depth > 0; depth--) {
    const node = $from.node(depth)
    if (node.type === type && to <= $from.end(depth)) {
      return Object.entries(attrs).every(([k, v]) => node.attrs[k] === v)
    }
  }
  return false
}

/** Heading on/off: a heading of this level turns back into a paragraph. */
export function toggleHeading(level: number): Command {
  return (state, dispatch) => {
    const { heading, paragraph } = schema.nodes
    if (isBlockActive(state, heading, { level })) return setBlockType(paragraph)(state, dispatch)
    return setBlockType(heading, { level })(state, dispatch)
  }
}

/** A list on/off; switching between bullets and numbers lifts then wraps again. */
export function toggleList(type: NodeType): Command {
  return (state, dispatch) => {
    const item = schema.nodes.list_item
    if (isBlockActive(state, type)) return liftListItem(item)(state, dispatch)
    return wrapInList(type)(state, dispatch)
  }
}

/** Quote on/off. */
export function toggleBlockquote(): Command {
  return (state, dispatch) => {
    const { blockquote } = schema.nodes
    if (!isBlockActive(state, blockquote)) return wrapIn(blockquote)(state, dispatch)
    const { $from, $to } = state.selection
    const range = $from.blockRange($to, (node) => node.type === blockquote)
    if (!range) return false
    if (dispatch) dispatch(state.tr.lift(range, range.depth - 1).scrollIntoView())
    return true
  }
}

/** Code block on/off. */
export function toggleCodeBlock(): Command {
  return (state, dispatch) => {
    const { code_block, paragraph } = schema.nodes
    if (isBlockActive(state, code_block)) return setBlockType(paragraph)(state, dispatch)
    return setBlockType(code_block)(state, dispatch)
  }
}

const insertHardBreak: Command = chainCommands(exitCode, (state, dispatch) => {
  if (dispatch) {
    dispatch(state.tr.replaceSelectionWith(schema.nodes.hard_break.create()).scrollIntoView())
  }
  return true
})

/** The editor's shortcuts (baseKeymap comes after these). `openLink` is Mod-k. */
export function editorKeys(openLink: () => void): Record<string, Command> {
  const { strong, em, code } = schema.marks
  const { bullet_list, ordered_list, list_item } = schema.nodes
  return {
    'Mod-z': undo,
    'Shift-Mod-z': redo,
    'Mod-y': redo,
    'Mod-b': toggleMark(strong),
    'Mod-i': toggleMark(em),
    'Mod-e': toggleMark(code),
    'Mod-`': toggleMark(code),
    'Mod-k': () => {
      openLink()
      return true
    },
    'Shift-Enter': insertHardBreak,
    'Mod-Enter': insertHardBreak,
    Enter: splitListItem(list_item),
    'Mod-[': liftListItem(list_item),
    'Mod-]': sinkListItem(list_item),
    'Shift-Mod-7': toggleList(ordered_list),
    'Shift-Mod-8': toggleList(bullet_list),
    'Shift-Mod-9': toggleBlockquote(),
    'Mod-Alt-0': setBlockType(schema.nodes.paragraph),
    'Mod-Alt-2': toggleHeading(2),
    'Mod-Alt-3': toggleHeading(3),
    'Shift-Mod-\\': toggleCodeBlock(),
  }
}
