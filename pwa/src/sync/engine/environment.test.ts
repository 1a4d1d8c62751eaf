import { afterEach, describe, expect, it, vi } from 'vitest'
import { browserConnectivity } from './environment.ts'

// The browser's online/offline and visibility events, as the engine hears
// them (WebKit over WebDriver cannot emulate offline, so this is where they are covered).

afterEach(() => {
  vi.unstubAllGlobals()
})

function fakeBrowser(onLine: boolean) {
  const win = new EventTarget()
  const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' })
  const nav = { onLine }
  vi.stubGlobal('window', win)
  vi.stubGlobal('document', doc)
  vi.stubGlobal('navigator', nav)
  return { win, doc, nav }
}

describe('browserConnectivity', () => {
  it('answers navigator.onLine and passes on online, offline and the page shown again', () => {
    const { win, doc, nav } = fakeBrowser(false)
    const connectivity = browserConnectivity()
    expect(connectivity?.isOnline()).toBe(false)
    const heard: string[] = []
    const stop = connectivity?.subscribe((event) => heard.push(event))
    nav.onLine = true
    win.dispatchEvent(new Event('online'))
    expect(connectivity?.isOnline()).toBe(true)
    win.dispatchEvent(new Event('offline'))
    doc.visibilityState = 'hidden'
    doc.dispatchEvent(new Event('visibilitychange'))
    doc.visibilityState = 'visible'
    doc.dispatchEvent(new Event('visibilitychange'))
    expect(heard).toEqual(['online', 'offline', 'visible'])
    stop?.()
    win.dispatchEvent(new Event('online'))
    expect(heard).toHaveLength(3)
  })

  it('is none outside a browser', () => {
    expect(browserConnectivity()).toBeNull()
  })
})
