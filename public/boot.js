// The classic script index.html runs before the app's modules. Two jobs:
//
// 1. Zod compiles fast parsers with `new Function`, after probing whether eval
//    is allowed, as soon as a schema is built; our CSP forbids eval, and
//    Chromium reports even the caught probe as a violation. Zod reads its
//    configuration from this global: setting it here switches the probe off
//    before any schema exists.
//
// 2. A return visit paints the screen as this person last saw it on this
//    device (decision 0050): the app keeps a copy of a settled screen's HTML
//    in localStorage (pwa/src/lib/snapshot.ts writes it, in this format), and
//    it is put up here, before any module has loaded, as a cover that takes no
//    input. The app takes it down as soon as its own screen has its data.
//    Only for the same person, address, window width and stylesheet, and no
//    older than a week.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, {
  jitless: true,
})
;(() => {
  try {
    const user = JSON.parse(localStorage.getItem('pairwise.user') || 'null')
    if (!user || typeof user.id !== 'string') return
    const raw = localStorage.getItem(`pairwise.snapshot:${location.pathname}${location.search}`)
    if (!raw) return
    const shot = JSON.parse(raw)
    const sheet = document.querySelector('link[rel="stylesheet"]')
    const css = sheet ? sheet.getAttribute('href') : null
    const fresh = Date.now() - shot.at < 7 * 24 * 3600 * 1000
    if (shot.v !== 1 || shot.user !== user.id || shot.width !== innerWidth || shot.css !== css)
      return
    if (!fresh || typeof shot.html !== 'string') return
    const cover = document.createElement('div')
    cover.id = 'snapshot'
    cover.setAttribute('aria-hidden', 'true')
    const screen = document.createElement('div')
    screen.inert = true
    screen.innerHTML = shot.html
    // The CSP allows no style attribute in markup; the same styles set through the CSSOM are fine.
    for (const el of screen.querySelectorAll('[data-snapshot-style]')) {
      el.style.cssText = el.getAttribute('data-snapshot-style')
      el.removeAttribute('data-snapshot-style')
    }
    cover.appendChild(screen)
    document.body.insertBefore(cover, document.getElementById('root'))
    if (typeof shot.title === 'string') document.title = shot.title
  } catch {
    // A snapshot that cannot be read is only a slower start.
  }
})()
