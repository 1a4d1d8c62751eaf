import { useCallback } from 'react'
import { toast, toastError, toastSuccess } from '../components/toast/store.ts'
import type { SyncEngine } from '../sync/engine/engine.ts'
import { MutationRefused, type Queued } from '../sync/mutators/mutation.ts'
import { type Outcome, waitForOutcome } from './outcome.ts'
import { useSignedIn } from './session.tsx'

/** How long a change waits for the server's answer before it is reported as waiting to sync. */
const ANSWER_WAIT_MS = 6_000

/** Mutations whose outcome a screen is waiting for: the global refusal toast skips them. */
const awaited = new Set<string>()

export function isAwaited(mutationId: string): boolean {
  return awaited.has(mutationId)
}

export type ChangeMessages = {
  /** The success toast's text (spec section 8). */
  success: string
  /** Its title; "Success" by default. */
  successTitle?: string
  /** The "Error" toast's text when refused, instead of the server's reason (preferences, spec section 8). */
  failure?: string
  /** The toast when the change is kept on this device until the server answers. */
  waiting?: { title: string; description: string }
}

export type ChangeResult = Outcome | { kind: 'refused-now'; detail: string }

const WAITING = {
  title: 'Saved on this device',
  description: "It will be sent when you're back online.",
}

/**
 * Runs one write through the outbox and tells the user how it went: the
 * spec's success toast once the server has it, the "Error" toast with the
 * server's reason when it is refused (at once by the shared rules, or by the
 * server), or a "saved on this device" toast while offline.
 */
export async function runChange(
  engine: Pick<SyncEngine, 'db' | 'status' | 'onRejected'>,
  queue: () => Promise<Queued>,
  messages: ChangeMessages,
): Promise<ChangeResult> {
  let queued: Queued
  try {
    queued = await queue()
  } catch (error) {
    const detail = error instanceof MutationRefused ? error.detail : errorText(error)
    toastError(messages.failure ?? detail)
    return { kind: 'refused-now', detail }
  }
  awaited.add(queued.mutationId)
  // A refusal that comes while this waits is this function's to tell (the app's refusal toast
  // skips awaited changes), even when the wait ends before it reads the refusal back.
  let refusal: Outcome | undefined
  const stopListening = engine.onRejected((row) => {
    if (row.id === queued.mutationId) {
      refusal = { kind: 'refused', detail: row.detail, status: row.status }
    }
  })
  try {
    const online = engine.status.get().online && navigator.onLine
    let outcome = await waitForOutcome(engine.db, queued.mutationId, online ? ANSWER_WAIT_MS : 400)
    if (outcome.kind === 'waiting' && refusal) outcome = refusal
    if (outcome.kind === 'saved') toastSuccess(messages.success, messages.successTitle)
    else if (outcome.kind === 'refused') toastError(messages.failure ?? outcome.detail)
    else toast({ ...(messages.waiting ?? WAITING), variant: 'info' })
    return outcome
  } finally {
    stopListening()
    awaited.delete(queued.mutationId)
  }
}

/** `runChange` bound to the signed-in user's engine. */
export function useChange() {
  const { engine } = useSignedIn()
  return useCallback(
    (queue: () => Promise<Queued>, messages: ChangeMessages) => runChange(engine, queue, messages),
    [engine],
  )
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
