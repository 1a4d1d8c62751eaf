import { type ComponentType, createElement, Suspense } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { screenChunk } from './screen-chunk.ts'

function Topics() {
  return createElement('h1', null, 'Topics')
}

function inSuspense(Screen: ComponentType): string {
  return renderToString(
    createElement(
      Suspense,
      { fallback: createElement('p', null, 'Loading') },
      createElement(Screen),
    ),
  )
}

describe('screenChunk', () => {
  it('renders a preloaded screen at once, without the Suspense fallback', async () => {
    const load = vi.fn(async () => ({ default: Topics }))
    const Screen = screenChunk(load)
    await Screen.preload()
    const html = inSuspense(Screen)
    expect(html).toContain('<h1>Topics</h1>')
    expect(html).not.toContain('Loading')
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('suspends a screen whose code has not come, and loads it once', async () => {
    const load = vi.fn(async () => ({ default: Topics }))
    const Screen = screenChunk(load)
    expect(inSuspense(Screen)).toContain('Loading')
    await Screen.preload()
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('loads again after a failed load', async () => {
    const load = vi
      .fn<() => Promise<{ default: typeof Topics }>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue({ default: Topics })
    const Screen = screenChunk(load)
    await expect(Screen.preload()).rejects.toThrow('offline')
    await Screen.preload()
    expect(load).toHaveBeenCalledTimes(2)
    expect(inSuspense(Screen)).toContain('<h1>Topics</h1>')
  })
})
