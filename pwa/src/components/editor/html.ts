import { DOMParser, DOMSerializer, type Node as PMNode } from 'prosemirror-model'
import { editorSchema } from './schema.ts'

/**
 * Reads a stored description (HTML the server has already sanitised) into a
 * document. The HTML is parsed into an inert template, so nothing in it runs
 * or loads while it is read.
 */
export function parseDescription(html: string): PMNode {
  const template = document.createElement('template')
  template.innerHTML = html
  return DOMParser.fromSchema(editorSchema).parse(template.content)
}

/**
 * The document as the HTML a description stores: the browser's own
 * serialisation of the schema's DOM (`<br>`, `&nbsp;`, `&amp;`), which is
 * what the server's sanitiser writes back. An empty document is ''.
 */
export function serializeDescription(doc: PMNode): string {
  if (isEmptyDoc(doc)) return ''
  const container = document.createElement('div')
  container.appendChild(DOMSerializer.fromSchema(editorSchema).serializeFragment(doc.content))
  return container.innerHTML.trim()
}

/** One empty paragraph: what the editor holds when nothing has been written. */
export function isEmptyDoc(doc: PMNode): boolean {
  const only = doc.childCount === 1 ? doc.firstChild : null
  return only !== null && only.type === editorSchema.nodes.paragraph && only.content.size === 0
}
