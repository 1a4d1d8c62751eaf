import { fileURLToPath } from 'node:url'
import { constants as zlibConstants } from 'node:zlib'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type UserConfig } from 'vite'
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
  plugins: [
    react(),
    tailwindcss(),
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
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // The sync client and React are shared by every screen: one chunk, cached across releases.
    rollupOptions: {
      output: {
        manualChunks(id) {
          if (/node_modules\/(react|react-dom|scheduler|react-router|react-router-dom)\//.test(id))
            return 'react'
          if (/node_modules\/(dexie|dexie-react-hooks)\//.test(id)) return 'dexie'
          if (/node_modules\/zod\//.test(id)) return 'zod'
          return undefined
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/healthz': 'http://localhost:3000' },
  },
}
