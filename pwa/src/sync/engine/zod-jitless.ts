// Zod compiles parsers with `new Function` after probing whether eval is allowed, as soon as a
// schema is built. The worker's CSP (the same as the page's) forbids eval and Chromium reports
// even the caught probe: as public/boot.js does for the page, this switches the probe off before
// any schema exists. Imported first by the worker's entry (pull-worker.ts).
const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> }
scope.__zod_globalConfig = Object.assign(scope.__zod_globalConfig ?? {}, { jitless: true })
