import type { Command, EditorState } from 'prosemirror-state'
import { type KeyboardEvent, useRef, useState } from 'react'
import { cn } from '../ui/cn.ts'
import { TOOLS } from './tools.ts'

/** ProseMirror's "Mod" is Command on Apple devices, Control elsewhere. */
const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

/**
 * The formatting toolbar (WAI-ARIA toolbar pattern): one tab stop, arrow keys,
 * Home and End move between buttons; on/off tools say so with aria-pressed.
 * Buttons keep the editor's selection (they do not take focus on click).
 */
export function EditorToolbar(props: {
  state: EditorState
  run: (command: Command) => void
  onLink: () => void
  label: string
}) {
  const [current, setCurrent] = useState(0)
  const buttons = useRef<(HTMLButtonElement | null)[]>([])

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const moves: Record<string, number> = {
      ArrowRight: current + 1,
      ArrowLeft: current - 1,
      Home: 0,
      End: TOOLS.length - 1,
    }
    const next = moves[event.key]
    if (next === undefined) return
    event.preventDefault()
    const index = (next + TOOLS.length) % TOOLS.length
    setCurrent(index)
    buttons.current[index]?.focus()
  }

  return (
    <div
      role="toolbar"
      aria-label={props.label}
      aria-orientation="horizontal"
      onKeyDown={onKeyDown}
      className="flex flex-wrap items-center gap-0.5 border-b border-slate-200 bg-slate-50 px-1.5 py-1 dark:border-slate-800 dark:bg-slate-900"
    >
      {TOOLS.map((tool, index) => {
        const enabled = tool.command === null || tool.command(props.state)
        const pressed = tool.active?.(props.state)
        const Icon = tool.icon
        return (
          <span key={tool.label} className="contents">
            <button
              ref={(el) => {
                buttons.current[index] = el
              }}
              type="button"
              tabIndex={index === current ? 0 : -1}
              aria-label={tool.label}
              title={`${tool.label} (${tool.keys.replace('Ctrl', MAC ? '⌘' : 'Ctrl')})`}
              aria-keyshortcuts={tool.keys.replace('Ctrl', MAC ? 'Meta' : 'Control')}
              aria-pressed={pressed === undefined ? undefined : pressed}
              aria-disabled={enabled ? undefined : true}
              onMouseDown={(e) => e.preventDefault()}
              onFocus={() => setCurrent(index)}
              onClick={() => {
                if (!enabled) return
                if (tool.command) props.run(tool.command)
                else props.onLink()
              }}
              className={cn(
                'inline-flex size-9 items-center justify-center rounded-md text-slate-600 transition-colors hover:bg-slate-200 hover:text-slate-900 sm:size-8 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white',
                pressed &&
                  'bg-brand-100 text-brand-800 hover:bg-brand-200 dark:bg-brand-900/70 dark:text-brand-100 dark:hover:bg-brand-900',
                !enabled &&
                  'cursor-not-allowed text-slate-400 hover:bg-transparent hover:text-slate-400 dark:text-slate-600 dark:hover:bg-transparent dark:hover:text-slate-600',
              )}
            >
              <Icon className="size-5" aria-hidden="true" />
            </button>
            {tool.groupEnd && (
              <span aria-hidden="true" className="mx-1 h-5 w-px bg-slate-300 dark:bg-slate-700" />
            )}
          </span>
        )
      })}
    </div>
  )
}
