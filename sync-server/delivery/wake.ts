const listeners = new Set<() => void>()

/**
 * Tells the delivery workers of this process that jobs were queued. notify()
 * calls it inside the event's transaction: a worker on the embedded database
 * then asks for jobs on its one connection, which runs after that transaction
 * ends. Workers on PostgreSQL wait for the commit's NOTIFY instead.
 */
export function wakeDeliveryWorkers(): void {
  for (const listener of listeners) listener()
}

/** Calls `listener` on every wake from now on; answers the function that stops it. */
export function onDeliveryWake(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
