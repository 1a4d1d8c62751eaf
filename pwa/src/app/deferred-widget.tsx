import { type ReactNode, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'

type ShellWidgets = typeof import('./shell-widgets.tsx')['shellWidgets']

let widgets: ShellWidgets | undefined
let pending: Promise<ShellWidgets> | undefined
const waiting = new Set<() => void>()

/** Starts loading the bar's menus (once); a failed load (offline, no cached copy) is tried again next time. */
function loadShellWidgets(): Promise<ShellWidgets> {
  pending ??= import('./shell-widgets.tsx').then(
    ({ shellWidgets }) => {
      widgets = shellWidgets
      for (const done of waiting) done()
      waiting.clear()
      return shellWidgets
    },
    (error: unknown) => {
      pending = undefined
      throw error
    },
  )
  return pending
}

/** What the person did with the stand-in button, done again on the real one. */
type Intent = 'click' | 'focus' | { key: string }

/** The keys that open a menu from its button (a popover: Enter and Space). */
const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown', 'ArrowUp'])

/** How long after a press ends its click may still come (a tap's click follows its touchend). */
const CLICK_AFTER_RELEASE_MS = 300

const preload = () => {
  // Nothing to tell: the button stays as it is, and a click asks again.
  loadShellWidgets().catch(() => {})
}

/**
 * One of the bar's menus or popovers, whose code (Headless UI's menus and
 * floating-ui) is not on the first screen's path. Until it has come, its
 * button is drawn as it looks closed: the same classes, content and name, and
 * the `aria-expanded`/`aria-haspopup` the real one has. Pointing at it,
 * touching it or focusing it starts the load. A click, or a key that opens
 * it, opens the real widget as soon as it is drawn (a key with the first
 * item focused, as Headless UI does), and focus moves to the real button if
 * it was on this one. The stand-in is not replaced in the middle of a press (between
 * pointerdown and click), where the click would be lost.
 */
export function DeferredWidget(props: {
  /** The widget, once its code has come. */
  children: (loaded: ShellWidgets) => ReactNode
  /** The closed widget's button. */
  button: { className: string; content: ReactNode; label?: string; haspopup?: 'menu' }
  /** The class of the element the widget's root draws around its button (a Popover's div), if any. */
  wrapperClassName?: string
}) {
  const [loaded, setLoaded] = useState(widgets)
  const look = useRef<HTMLButtonElement>(null)
  const box = useRef<HTMLDivElement>(null)
  const intent = useRef<Intent | null>(null)
  // A press on the stand-in not yet ended: the real button waits for its click, which would
  // otherwise land on neither button.
  const pressed = useRef(false)

  const swap = useCallback(() => {
    if (!widgets || pressed.current) return
    // Read before the stand-in leaves the page (and focus with it).
    if (!intent.current && look.current && document.activeElement === look.current) {
      intent.current = 'focus'
    }
    setLoaded(widgets)
  }, [])

  useEffect(() => {
    if (loaded) return
    waiting.add(swap)
    return () => {
      waiting.delete(swap)
    }
  }, [loaded, swap])

  useLayoutEffect(() => {
    const wanted = intent.current
    if (!loaded || !wanted) return
    intent.current = null
    const button = box.current?.querySelector<HTMLElement>('button')
    if (!button) return
    button.focus()
    if (wanted === 'click') button.click()
    // A key opens a menu with its first item focused, as the real button does.
    else if (wanted !== 'focus') {
      button.dispatchEvent(new KeyboardEvent('keydown', { key: wanted.key, bubbles: true }))
    }
  }, [loaded])

  if (loaded) {
    return (
      <div ref={box} className="contents">
        {props.children(loaded)}
      </div>
    )
  }
  const { button } = props
  const stand = (
    <button
      ref={look}
      type="button"
      className={button.className}
      aria-label={button.label}
      aria-haspopup={button.haspopup}
      aria-expanded={false}
      onPointerEnter={preload}
      onFocus={preload}
      onPointerDown={() => {
        pressed.current = true
        preload()
        // A press that ends without a click (released elsewhere) lets the swap happen.
        const release = () => {
          window.removeEventListener('pointerup', release)
          window.removeEventListener('pointercancel', release)
          setTimeout(() => {
            pressed.current = false
            swap()
          }, CLICK_AFTER_RELEASE_MS)
        }
        window.addEventListener('pointerup', release)
        window.addEventListener('pointercancel', release)
      }}
      onKeyDown={(event) => {
        const opens =
          OPENING_KEYS.has(event.key) && (button.haspopup || !event.key.startsWith('Arrow'))
        if (!opens) return
        // Not also a click: the key itself is played on the real button.
        event.preventDefault()
        intent.current = { key: event.key }
        if (widgets) swap()
        else preload()
      }}
      onClick={() => {
        pressed.current = false
        intent.current = 'click'
        if (widgets) swap()
        else preload()
      }}
    >
      {button.content}
    </button>
  )
  return (
    <div ref={box} className="contents">
      {props.wrapperClassName ? <div className={props.wrapperClassName}>{stand}</div> : stand}
    </div>
  )
}
