import { TOAST_DURATION_MS, TOAST_LIMIT } from '../../../../shared/constants.ts'

/**
 * The toast queue (spec section 8): at most TOAST_LIMIT show at a time; a new
 * toast replaces the oldest. Kept outside React so any code (the sync
 * engine's refusals, a mutation's outcome) can raise one.
 */
type ToastVariant = 'success' | 'destructive' | 'info'

export type Toast = {
  id: number
  title: string
  description?: string
  variant: ToastVariant
  /** How long it shows, in ms. */
  duration: number
}

export type ToastInput = Omit<Toast, 'id' | 'duration'> & { duration?: number }

type Listener = (toasts: readonly Toast[]) => void

let nextId = 1
let toasts: readonly Toast[] = []
const listeners = new Set<Listener>()

function emit(): void {
  for (const listener of listeners) listener(toasts)
}

/** Shows a toast; answers its id. */
export function toast(input: ToastInput): number {
  const id = nextId++
  toasts = [{ duration: TOAST_DURATION_MS, ...input, id }, ...toasts].slice(0, TOAST_LIMIT)
  emit()
  return id
}

export function dismissToast(id: number): void {
  toasts = toasts.filter((t) => t.id !== id)
  emit()
}

export function getToasts(): readonly Toast[] {
  return toasts
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The destructive toast of a failed change (spec section 8): title "Error", the reason as text. */
export function toastError(description: string, title = 'Error'): number {
  return toast({ title, description, variant: 'destructive' })
}

/** A success toast: title "Success" unless given. */
export function toastSuccess(description: string, title = 'Success'): number {
  return toast({ title, description, variant: 'success' })
}
