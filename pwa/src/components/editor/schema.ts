import { type MarkSpec, type NodeSpec, Schema } from 'prosemirror-model'
import { marks as basicMarks, nodes as basicNodes } from 'prosemirror-schema-basic'
import { addListNodes } from 'prosemirror-schema-list'
import { RICH_TEXT_LINK_REL, RICH_TEXT_LINK_TARGET } from '../../../../shared/rich-text.ts'

/**
 * The editor's document model: exactly the HTML the server's sanitiser keeps
 * (sync-server/topics/sanitize.ts). Every toDOM below writes tags and
 * attributes in the form and order the sanitiser writes them back, so a
 * description saved from the editor is stored byte for byte as written.
 * Images are left out: the sanitiser drops <img>.
 */

const heading: NodeSpec = {
  attrs: { level: { default: 2 } },
  content: 'inline*',
  group: 'block',
  defining: true,
  // Older descriptions may hold h1 or h4-h6: they are read as the nearest level the editor offers.
  parseDOM: [1, 2, 3, 4, 5, 6].map((level) => ({
    tag: `h${level}`,
    attrs: { level: Math.min(Math.max(level, 2), 3) },
  })),
  toDOM: (node) => [`h${node.attrs.level}`, 0],
}

const link: MarkSpec = {
  attrs: { href: {}, title: { default: null } },
  inclusive: false,
  parseDOM: [
    {
      tag: 'a[href]',
      getAttrs: (dom: HTMLElement) => ({
        href: dom.getAttribute('href'),
        title: dom.getAttribute('title') || null,
      }),
    },
  ],
  // href, title, target, rel: the sanitiser's order (null attributes are left out).
  toDOM: (mark) => [
    'a',
    {
      href: mark.attrs.href,
      title: mark.attrs.title,
      target: RICH_TEXT_LINK_TARGET,
      rel: RICH_TEXT_LINK_REL,
    },
    0,
  ],
}

function basicNodesForDescriptions(): Record<string, NodeSpec> {
  const { image: _image, heading: _heading, ...rest } = basicNodes
  return { ...rest, heading }
}

// addListNodes wants the ordered map a schema builds; paragraph stays the first block (the default).
const nodes = addListNodes(
  new Schema({ nodes: basicNodesForDescriptions() }).spec.nodes,
  'paragraph block*',
  'block',
)

type NodeName =
  | 'doc'
  | 'paragraph'
  | 'blockquote'
  | 'horizontal_rule'
  | 'heading'
  | 'code_block'
  | 'text'
  | 'hard_break'
  | 'ordered_list'
  | 'bullet_list'
  | 'list_item'
type MarkName = 'link' | 'em' | 'strong' | 'code'

export const editorSchema = new Schema<NodeName, MarkName>({
  nodes,
  marks: { link, em: basicMarks.em, strong: basicMarks.strong, code: basicMarks.code },
})
