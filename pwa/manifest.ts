import type { ManifestOptions } from 'vite-plugin-pwa'

/**
 * The web app manifest (vite-plugin-pwa writes it as manifest.webmanifest and
 * links it from index.html). Icons are rendered from favicon.svg by
 * scripts/generate-icons.ts; the maskable one keeps its figures in the safe zone.
 */
export const pwaManifest: Partial<ManifestOptions> = {
  id: '/',
  name: 'Pairwise Mentorship',
  short_name: 'Pairwise',
  description:
    "Your company's mentorship programme: find a mentor, share what you know, and grow together.",
  start_url: '/',
  scope: '/',
  display: 'standalone',
  orientation: 'any',
  lang: 'en',
  categories: ['business', 'education', 'productivity'],
  theme_color: '#4f46e5',
  background_color: '#f8fafc',
  icons: [
    { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
  shortcuts: [
    {
      name: 'Topics',
      short_name: 'Topics',
      description: 'Browse mentorship topics',
      url: '/topics',
      icons: [{ src: '/shortcut-topics-96.png', sizes: '96x96', type: 'image/png' }],
    },
    {
      name: 'Dashboard',
      short_name: 'Dashboard',
      description: 'Your topics and applications',
      url: '/dashboard',
      icons: [{ src: '/shortcut-dashboard-96.png', sizes: '96x96', type: 'image/png' }],
    },
  ],
}
