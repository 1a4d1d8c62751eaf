/**
 * Import rules of docs/architecture.md, checked by `npm run lint`.
 *
 * PWA:    app/ → features/ → components/, sync/, lib/ → repo shared/
 * Server: app.ts/main.ts → <feature>/routes.ts → domain modules → db/, http/ → repo shared/
 * Tests, test helpers and benchmarks may import anything.
 */
const TESTS = '(\\.test\\.tsx?$|/testing/|^sync-server/test/|^e2e/|^bench/)'

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other cannot be understood or tested apart.',
      from: { pathNot: TESTS },
      to: { circular: true },
    },
    {
      name: 'shared-stands-alone',
      severity: 'error',
      comment: 'shared/ is used by both sides and imports neither.',
      from: { path: '^shared/' },
      to: { path: '^(pwa|sync-server)/' },
    },
    {
      name: 'pwa-no-server',
      severity: 'error',
      comment: 'The PWA and the server share code only through shared/.',
      from: { path: '^pwa/', pathNot: TESTS },
      to: { path: '^sync-server/' },
    },
    {
      name: 'server-no-pwa',
      severity: 'error',
      from: { path: '^sync-server/', pathNot: TESTS },
      to: { path: '^pwa/' },
    },
    {
      name: 'pwa-nothing-below-imports-app',
      severity: 'error',
      comment: 'app/ composes the app; features, components, sync and lib never import it.',
      from: { path: '^pwa/src/(features|components|sync|lib)/', pathNot: TESTS },
      to: { path: '^pwa/src/app/' },
    },
    {
      name: 'pwa-no-cross-feature',
      severity: 'error',
      comment: 'A feature uses another only through app/ (the router) or what they share below.',
      from: { path: '^pwa/src/features/([^/]+)/', pathNot: TESTS },
      to: { path: '^pwa/src/features/([^/]+)/', pathNot: '^pwa/src/features/$1/' },
    },
    {
      name: 'pwa-lower-layers-no-features',
      severity: 'error',
      comment: 'components/, sync/ and lib/ sit below features/.',
      from: { path: '^pwa/src/(components|sync|lib)/', pathNot: TESTS },
      to: { path: '^pwa/src/features/' },
    },
    {
      name: 'server-nothing-imports-routes',
      severity: 'error',
      comment: 'Route modules are mounted by sync-server/app.ts alone; nothing else imports one.',
      from: { path: '^sync-server/', pathNot: `(^sync-server/app\\.ts$|${TESTS})` },
      to: { path: '^sync-server/.*routes\\.ts$' },
    },
    {
      name: 'server-db-and-http-below-domain',
      severity: 'error',
      comment: 'db/ and http/ are the bottom layer: they import no feature module.',
      from: { path: '^sync-server/(db|http)/', pathNot: TESTS },
      to: {
        path: '^sync-server/',
        pathNot: '^sync-server/(db|http)/|^sync-server/config\\.ts$',
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^node_modules|^dist/)' },
    babelConfig: { fileName: '.babelrc.depcruise.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
}
