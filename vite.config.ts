import { fileURLToPath } from 'node:url'
import { constants as zlibConstants } from 'node:zlib'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig, type Plugin, type UserConfig } from 'vite'
import { compression } from 'vite-plugin-compression2'
import { VitePWA } from 'vite-plugin-pwa'
import { pwaManifest } from './pwa/manifest.ts'

const root = fileURLToPath(new URL('./pwa', import.meta.url))

// The PWA lives in pwa/; its build goes to dist/, which the sync server serves.
export default defineConfig(({ command }) => {
  // `npm start` builds the production app whatever NODE_ENV the server runs with
  // (NODE_ENV=development would otherwise give React's development bundle and JSX).
  if (command === 'build') process.env.NODE_ENV = 'production'
  return config
})

const config: UserConfig = {
  root,
  publicDir: fileURLToPath(new URL('./public', import.meta.url)),
  // The screens are written against React's API and run on Preact (decision 0044): JSX compiles
  // to Preact's runtime, and `react`/`react-dom` imports (ours and the libraries') resolve to
  // preact/compat.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [
    tailwindcss(),
    paintFirst(),
    // Our own service worker (pwa/src/sw.ts) gets the list of files to precache injected;
    // the page registers it from its own module (register-sw.ts): the CSP allows no inline script.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: pwaManifest,
      // The app's code, styles and shell, plus the icons a notification shows offline; the
      // install icons are fetched by the browser when installing, never by the offline app.
      includeManifestIcons: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,woff2}', 'icon-192.png', 'badge-96.png'],
      },
    }),
    // Each text file also as .br (quality 11) and .gz (level 9), made once at build time:
    // the server sends the smallest the browser accepts, with no compressing per request.
    compression({
      include: /\.(js|css|html|svg|webmanifest)$/,
      algorithms: [
        ['brotliCompress', { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }],
        ['gzip', { level: 9 }],
      ],
      threshold: 1024,
      logLevel: 'silent',
    }),
  ],
  resolve: {
    alias: [
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react-dom$/, replacement: 'preact/compat' },
      { find: /^react$/, replacement: 'preact/compat' },
      { find: /^react\/jsx-(dev-)?runtime$/, replacement: 'preact/jsx-runtime' },
    ],
  },
  // The worker that writes a first sync's pages (pwa/src/sync/engine/pull-worker.ts) is a module
  // worker: every browser the app supports has them, and one that has not reports an error, on
  // which the pull writes its pages itself.
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // The framework (Preact, the router), the sync client's store and the schemas are shared by
    // every screen: a chunk each, cached across releases. Priorities keep a library in its own
    // chunk when another group's modules import it (Dexie's hooks import the framework).
    rollupOptions: {
      onwarn(warning, warn) {
        // Headless UI's "use client" marks are for React Server Components, which this app has none of.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('use client'))
          return
        // React Router looks React 19's useOptimistic up and does without it when absent (Preact).
        if (warning.code === 'IMPORT_IS_UNDEFINED' && warning.message.includes('useOptimistic'))
          return
        warn(warning)
      },
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](preact|react-router|react-router-dom)[\\/]/,
              priority: 3,
            },
            { name: 'dexie', test: /node_modules[\\/](dexie|dexie-react-hooks)[\\/]/, priority: 2 },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/healthz': 'http://localhost:3000' },
  },
}

/**
 * index.html asks first for what a return visit's first paint waits on: the
 * stylesheet (it blocks rendering) and boot.js (it puts up the screen as last
 * seen, decision 0050; the parser waits for it), then for the app's modules,
 * which run after both. Vite writes its module script and preloads before the
 * stylesheet, and boot.js sits at the end of the body: on an offline cold start
 * the service worker answered the two last, after six modules.
 */
function paintFirst(): Plugin {
  return {
    name: 'pairwise:paint-first',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const sheet = /[ \t]*<link rel="stylesheet"[^>]*>\n?/.exec(html)
        const firstModule = html.indexOf('<script type="module"')
        if (!sheet || firstModule < 0 || sheet.index < firstModule) {
          throw new Error('index.html: the stylesheet or the module script is not where expected')
        }
        const rest = html.slice(0, sheet.index) + html.slice(sheet.index + sheet[0].length)
        const first = `${sheet[0].trim()}\n    <link rel="preload" href="/boot.js" as="script" />\n    `
        return rest.slice(0, firstModule) + first + rest.slice(firstModule)
      },
    },
  }
}
