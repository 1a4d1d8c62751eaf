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
//
// 3. The session check leaves now, not once the app's modules have loaded and
//    drawn their first screen (on a slow host that was 400-500 ms later). When
//    it names someone this device holds no data of (no one signed in here
//    before, or someone else), their first pull page and GET /api/user leave
//    as it answers (decisions 0056, 0059). The app takes these answers instead of
//    asking again: pwa/src/lib/boot-answers.ts reads the format below (keep
//    both in step), and takes each one once. What it has not taken in 30 s is
//    let go.
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

;(() => {
  try {
    // One GET as the app's HTTP client sends it (pwa/src/lib/http.ts), within `limitMs`:
    // answers { status, statusText, text }, or fails with 'timeout', 'aborted' or 'network'.
    const get = (path, limitMs, abort) => {
      let timedOut = false
      const timer = setTimeout(() => {
        timedOut = true
        abort.abort()
      }, limitMs)
      const answer = fetch(path, {
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
        signal: abort.signal,
      })
        .then((res) =>
          res.text().then((text) => ({ status: res.status, statusText: res.statusText, text })),
        )
        .catch(() => {
          throw timedOut ? 'timeout' : abort.signal.aborted ? 'aborted' : 'network'
        })
        .finally(() => clearTimeout(timer))
      // A failure is seen where the app awaits it; never unhandled when it is let go.
      answer.catch(() => {})
      return { path, answer, abort }
    }
    const boot = { session: null, firstPage: null }
    const session = get('/api/auth/session', 15000, new AbortController())
    boot.session = {
      path: session.path,
      abort: session.abort,
      // The first page is asked for before the app sees the session's answer.
      answer: session.answer.then((raw) => {
        try {
          const user = raw.status === 200 ? JSON.parse(raw.text).user : null
          const stored = JSON.parse(localStorage.getItem('pairwise.user') || 'null')
          if (user && typeof user.id === 'string' && (!stored || stored.id !== user.id)) {
            const abort = new AbortController()
            const firstPage = {
              userId: user.id,
              page: get('/api/sync/pull', 30000, abort),
              user: get('/api/user', 30000, abort),
              taken: false,
            }
            boot.firstPage = firstPage
            setTimeout(() => {
              if (!firstPage.taken) abort.abort()
            }, 30000)
          }
        } catch {
          // The app asks for the first page itself.
        }
        return raw
      }),
    }
    boot.session.answer.catch(() => {})
    globalThis.__pairwiseBoot = boot
  } catch {
    // Without it the app asks for these itself.
  }
})()
