import { useEffect } from 'react'
import type { SyncEngine } from './engine.ts'
import { IDB_STALL_MS } from './stall-watchdog.ts'

/**
 * While a screen's read of IndexedDB has not answered for IDB_STALL_MS, asks
 * the engine's watchdog to probe (and, if stuck, reopen) IndexedDB, again
 * every IDB_STALL_MS until the read answers. A plain slow first read costs
 * one cheap count.
 */
export function useStallCheck(engine: SyncEngine, waiting: boolean): void {
  useEffect(() => {
    if (!waiting) return
    const timer = setInterval(() => void engine.checkStall('screen-read'), IDB_STALL_MS)
    return () => clearInterval(timer)
  }, [engine, waiting])
}

/**
 * A read the watchdog cut off by closing a stuck connection fails with
 * DatabaseClosedError: instead of an error screen, it keeps the screen
 * waiting; the recovery re-runs the query on the fresh connection.
 */
export function waitIfClosed(error: unknown): Promise<never> {
  if (error instanceof Error && error.name === 'DatabaseClosedError') return new Promise(() => {})
  throw error
}
