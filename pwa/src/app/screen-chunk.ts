import { type ComponentType, createElement, type LazyExoticComponent, lazy, useState } from 'react'

/** A screen whose code is its own chunk, and can be asked for before the router renders it. */
export type ScreenChunk = ComponentType & {
  /** Starts loading the screen's code (once); the router renders it without suspending if it has come. */
  preload: () => Promise<unknown>
}

/**
 * `lazy` with a preload. A lazy screen always suspends on its first render,
 * even when its code has already come: `lazy` learns that the import has
 * resolved only in a `then` of its own, so the Suspense fallback shows first
 * (and React held the screen back for up to 300 ms more, its fallback
 * throttle). A screen whose code was preloaded and has come renders directly
 * instead, with no fallback. Each mounted screen keeps the way it started, so
 * a re-render never swaps the component type (which would remount it).
 */
export function screenChunk(load: () => Promise<{ default: ComponentType }>): ScreenChunk {
  let loaded: ComponentType | undefined
  let pending: Promise<{ default: ComponentType }> | undefined
  const preload = () => {
    pending ??= load().then(
      (module) => {
        loaded = module.default
        return module
      },
      (error: unknown) => {
        // A failed load (offline with no cached copy) is tried again by the next preload,
        // or by the screen's first render.
        pending = undefined
        throw error
      },
    )
    return pending
  }
  const Lazy: LazyExoticComponent<ComponentType> = lazy(preload)
  function Screen() {
    const [direct] = useState(() => loaded)
    return createElement(direct ?? Lazy)
  }
  return Object.assign(Screen, { preload })
}
