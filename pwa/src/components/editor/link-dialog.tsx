import { Input } from '@headlessui/react'
import { type FormEvent, useEffect, useRef, useState } from 'react'
import { Button } from '../ui/button.tsx'
import { cn } from '../ui/cn.ts'
import { Modal, ModalActions } from '../ui/dialog.tsx'
import { controlClasses, Field } from '../ui/field.tsx'
import { checkLinkUrl } from './link.ts'

/**
 * Asks for a link's URL (spec section 2: "a link button that asks for a
 * URL"); refuses schemes other than those of section 5 with a message under
 * the field. `current` is the URL of the link being edited, if any.
 */
export function LinkDialog(props: {
  open: boolean
  current: string | null
  onClose: () => void
  onApply: (href: string) => void
  onRemove: () => void
  /** After the dialog has gone and put focus back where it was (to move it on from there). */
  onClosed: () => void
}) {
  const [url, setUrl] = useState('')
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    if (props.open) {
      setUrl(props.current ?? '')
      setError(null)
    }
  }, [props.open, props.current])

  function submit(event: FormEvent) {
    event.preventDefault()
    event.stopPropagation()
    const checked = checkLinkUrl(url)
    if (!checked.ok) {
      setError(checked.error)
      return
    }
    props.onApply(checked.href)
  }

  return (
    <Modal
      open={props.open}
      onClose={props.onClose}
      title={props.current ? 'Edit Link' : 'Add Link'}
      description="Links open in a new tab."
    >
      <AfterClose run={props.onClosed} />
      <form onSubmit={submit} noValidate>
        <Field
          label="URL"
          error={error}
          hint="For example https://example.com or mailto:name@example.com"
        >
          <Input
            type="text"
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            autoFocus
            className={cn(controlClasses, 'h-10')}
            value={url}
            invalid={Boolean(error)}
            placeholder="https://"
            onChange={(e) => {
              setUrl(e.target.value)
              setError(null)
            }}
          />
        </Field>
        <ModalActions>
          {props.current && (
            <Button variant="ghost" className="sm:mr-auto" onClick={props.onRemove}>
              Remove Link
            </Button>
          )}
          <Button variant="secondary" onClick={props.onClose}>
            Cancel
          </Button>
          <Button type="submit">{props.current ? 'Update Link' : 'Add Link'}</Button>
        </ModalActions>
      </form>
    </Modal>
  )
}

/**
 * Runs `run` once the dialog's content unmounts: after its leave transition
 * and after Headless UI has restored focus (to whatever was last clicked,
 * which may be a toolbar button), so the editor can take it back.
 */
function AfterClose(props: { run: () => void }) {
  const run = useRef(props.run)
  run.current = props.run
  useEffect(
    () => () => {
      setTimeout(() => run.current(), 0)
    },
    [],
  )
  return null
}
