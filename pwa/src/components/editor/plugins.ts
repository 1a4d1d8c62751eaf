import { baseKeymap } from 'prosemirror-commands'
import { history } from 'prosemirror-history'
import {
  type InputRule,
  inputRules,
  textblockTypeInputRule,
  wrappingInputRule,
} from 'prosemirror-inputrules'
import { keymap } from 'prosemirror-keymap'
import { type EditorState, Plugin } from 'prosemirror-state'
import { Decoration, DecorationSet } from 'prosemirror-view'
import { EDITOR_HISTORY_DEPTH, EDITOR_NEW_GROUP_DELAY_MS } from '../../../../shared/constants.ts'
import { editorKeys } from './commands.ts'
import { isEmptyDoc } from './html.ts'
import { editorSchema as schema } from './schema.ts'

/** Markdown-like shortcuts typed at the start of a line: "- ", "1. ", "> ", "## ", "```". */
function markdownRules(): InputRule[] {
  const { bullet_list, ordered_list, blockquote, heading, code_block } = schema.nodes
  return [
    wrappingInputRule(/^\s*([-+*])\s$/, bullet_list),
    wrappingInputRule(
      /^(\d+)\.\s$/,
      ordered_list,
      (match) => ({ order: Number(match[1]) }),
      (match, node) => node.childCount + node.attrs.order === Number(match[1]),
    ),
    wrappingInputRule(/^\s*>\s$/, blockquote),
    textblockTypeInputRule(/^(#{2,3})\s$/, heading, (match) => ({ level: match[1]?.length })),
    textblockTypeInputRule(/^```$/, code_block),
  ]
}

/** Shows a hint in the empty editor (a CSS ::before, so it is never part of the text). */
function placeholder(text: string): Plugin {
  return new Plugin({
    props: {
      decorations(state: EditorState) {
        if (!isEmptyDoc(state.doc)) return null
        const first = state.doc.firstChild
        if (!first) return null
        return DecorationSet.create(state.doc, [
          Decoration.node(0, first.nodeSize, {
            class: 'pw-placeholder',
            'data-placeholder': text,
          }),
        ])
      },
    },
  })
}

/**
 * The editor's behaviour: undo history (depth 100, a new undo step after a
 * 500 ms pause; spec section 9), shortcuts, typing rules and the empty hint.
 */
export function editorPlugins(options: { openLink: () => void; placeholder?: string }): Plugin[] {
  return [
    history({ depth: EDITOR_HISTORY_DEPTH, newGroupDelay: EDITOR_NEW_GROUP_DELAY_MS }),
    inputRules({ rules: markdownRules() }),
    keymap(editorKeys(options.openLink)),
    keymap(baseKeymap),
    ...(options.placeholder ? [placeholder(options.placeholder)] : []),
  ]
}
