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
 * A read cut off under the screen fails: with DatabaseClosedError when the
 * watchdog closed a stuck connection, with AbortError when the page was
 * frozen into the back/forward cache since the read began (`freezesBefore`,
 * the engine's count then). Instead of an error screen, the screen keeps
 * waiting; the recovery (or the page shown again) runs the read again.
 */
export function waitIfCutOff(
  engine: SyncEngine,
  freezesBefore: number,
  error: unknown,
): Promise<never> {
  const name = error instanceof Error ? error.name : ''
  if (name === 'DatabaseClosedError' || (name === 'AbortError' && engine.freezes > freezesBefore)) {
    return new Promise(() => {})
  }
  throw error
}
