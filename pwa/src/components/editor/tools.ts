import {
  ArrowUturnLeftIcon,
  ArrowUturnRightIcon,
  BoldIcon,
  ChatBubbleBottomCenterTextIcon,
  CodeBracketIcon,
  CodeBracketSquareIcon,
  H2Icon,
  H3Icon,
  ItalicIcon,
  LinkIcon,
  ListBulletIcon,
  NumberedListIcon,
} from '@heroicons/react/20/solid'
import { toggleMark } from 'prosemirror-commands'
import { redo, undo } from 'prosemirror-history'
import type { Command, EditorState } from 'prosemirror-state'
import type { ComponentType, SVGProps } from 'react'
import {
  isBlockActive,
  isMarkActive,
  toggleBlockquote,
  toggleCodeBlock,
  toggleHeading,
  toggleList,
} from './commands.ts'
import { linkAt } from './link.ts'
import { editorSchema as schema } from './schema.ts'

export type Tool = {
  label: string
  keys: string
  icon: ComponentType<SVGProps<SVGSVGElement>>
  /** Undefined for plain actions (undo, redo), which have no on/off state. */
  active?: (state: EditorState) => boolean
  /** The command; null for the link button, which opens the dialog. */
  command: Command | null
  groupEnd?: boolean
}

const { strong, em, code } = schema.marks
const { bullet_list, ordered_list, heading, blockquote, code_block } = schema.nodes

/** The toolbar's buttons, in order; `groupEnd` draws a divider after one. */
export const TOOLS: Tool[] = [
  {
    label: 'Bold',
    keys: 'Ctrl+B',
    icon: BoldIcon,
    active: (s) => isMarkActive(s, strong),
    command: toggleMark(strong),
  },
  {
    label: 'Italic',
    keys: 'Ctrl+I',
    icon: ItalicIcon,
    active: (s) => isMarkActive(s, em),
    command: toggleMark(em),
  },
  {
    label: 'Inline code',
    keys: 'Ctrl+E',
    icon: CodeBracketIcon,
    active: (s) => isMarkActive(s, code),
    command: toggleMark(code),
    groupEnd: true,
  },
  {
    label: 'Heading 2',
    keys: 'Ctrl+Alt+2',
    icon: H2Icon,
    active: (s) => isBlockActive(s, heading, { level: 2 }),
    command: toggleHeading(2),
  },
  {
    label: 'Heading 3',
    keys: 'Ctrl+Alt+3',
    icon: H3Icon,
    active: (s) => isBlockActive(s, heading, { level: 3 }),
    command: toggleHeading(3),
    groupEnd: true,
  },
  {
    label: 'Bulleted list',
    keys: 'Ctrl+Shift+8',
    icon: ListBulletIcon,
    active: (s) => isBlockActive(s, bullet_list),
    command: toggleList(bullet_list),
  },
  {
    label: 'Numbered list',
    keys: 'Ctrl+Shift+7',
    icon: NumberedListIcon,
    active: (s) => isBlockActive(s, ordered_list),
    command: toggleList(ordered_list),
  },
  {
    label: 'Quote',
    keys: 'Ctrl+Shift+9',
    icon: ChatBubbleBottomCenterTextIcon,
    active: (s) => isBlockActive(s, blockquote),
    command: toggleBlockquote(),
  },
  {
    label: 'Code block',
    keys: 'Ctrl+Shift+\\',
    icon: CodeBracketSquareIcon,
    active: (s) => isBlockActive(s, code_block),
    command: toggleCodeBlock(),
    groupEnd: true,
  },
  {
    label: 'Link',
    keys: 'Ctrl+K',
    icon: LinkIcon,
    active: (s) => linkAt(s) !== null,
    command: null,
    groupEnd: true,
  },
  { label: 'Undo', keys: 'Ctrl+Z', icon: ArrowUturnLeftIcon, command: undo },
  { label: 'Redo', keys: 'Ctrl+Shift+Z', icon: ArrowUturnRightIcon, command: redo },
]
