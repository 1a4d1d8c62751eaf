// Zod compiles fast parsers with `new Function`, after probing whether eval is
// allowed, as soon as a schema is built; our CSP forbids eval, and Chromium
// reports even the caught probe as a violation. Zod reads its configuration
// from this global: setting it here, in a classic script that index.html runs
// before the app's modules, switches the probe off before any schema exists.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, {
  jitless: true,
})
