/**
 * Renders the app icons in public/ from the favicon's design (public/favicon.svg):
 * the "any" icons keep its rounded square; the maskable and Apple icons fill the
 * whole square and keep the two figures inside the centre 80% safe zone, since
 * the platform cuts its own shape; the badge is a white silhouette (Android tints
 * it); shortcut icons show the Topics and Dashboard glyphs of the navigation.
 *
 * Run once after changing the design: `npx tsx scripts/generate-icons.ts`.
 */
import { writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { chromiumPath } from '../e2e/chromium.ts'

const PUBLIC = fileURLToPath(new URL('../public/', import.meta.url))
const BRAND = '#4f46e5'
const LIGHT = '#c7d2fe'

/** The two figures of the favicon (64×64 units), in the given colours. */
function figures(front: string, back: string): string {
  return `<circle cx="24" cy="26" r="9" fill="${front}"/><circle cx="42" cy="30" r="7" fill="${back}"/>
<path d="M10 52c2-9 8-14 14-14s12 5 14 14z" fill="${front}"/><path d="M32 52c1.5-7 6-11 10-11s8.5 4 10 11z" fill="${back}"/>`
}

/** The figures scaled about their centre (31, 34.5) and centred in the square. */
function centred(scale: number, front: string, back: string): string {
  return `<g transform="translate(32 32) scale(${scale}) translate(-31 -34.5)">${figures(front, back)}</g>`
}

const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="100%" height="100%">${body}</svg>`

const ANY = svg(`<rect width="64" height="64" rx="14" fill="${BRAND}"/>${figures('#fff', LIGHT)}`)
const FULL = (scale: number) =>
  svg(`<rect width="64" height="64" fill="${BRAND}"/>${centred(scale, '#fff', LIGHT)}`)
const BADGE = svg(centred(1.25, '#fff', '#fff'))

/** Heroicons 24/outline paths: queue-list (Topics) and squares-2x2 (Dashboard). */
const TOPICS_PATH =
  'M3.75 12h16.5m-16.5 3.75h16.5M3.75 19.5h16.5M5.625 4.5h12.75a1.875 1.875 0 0 1 0 3.75H5.625a1.875 1.875 0 0 1 0-3.75Z'
const DASHBOARD_PATH =
  'M3.75 6A2.25 2.25 0 0 1 6 3.75h2.25A2.25 2.25 0 0 1 10.5 6v2.25a2.25 2.25 0 0 1-2.25 2.25H6a2.25 2.25 0 0 1-2.25-2.25V6ZM3.75 15.75A2.25 2.25 0 0 1 6 13.5h2.25a2.25 2.25 0 0 1 2.25 2.25V18a2.25 2.25 0 0 1-2.25 2.25H6A2.25 2.25 0 0 1 3.75 18v-2.25ZM13.5 6a2.25 2.25 0 0 1 2.25-2.25H18A2.25 2.25 0 0 1 20.25 6v2.25A2.25 2.25 0 0 1 18 10.5h-2.25a2.25 2.25 0 0 1-2.25-2.25V6ZM13.5 15.75a2.25 2.25 0 0 1 2.25-2.25H18a2.25 2.25 0 0 1 2.25 2.25V18A2.25 2.25 0 0 1 18 20.25h-2.25A2.25 2.25 0 0 1 13.5 18v-2.25Z'
const shortcut = (path: string) =>
  svg(
    `<rect width="64" height="64" rx="14" fill="${BRAND}"/><g transform="translate(14 14) scale(1.5)"><path d="${path}" fill="none" stroke="#fff" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round"/></g>`,
  )

const ICONS: { file: string; size: number; svg: string }[] = [
  { file: 'icon-192.png', size: 192, svg: ANY },
  { file: 'icon-512.png', size: 512, svg: ANY },
  { file: 'icon-maskable-512.png', size: 512, svg: FULL(0.78) },
  { file: 'apple-touch-icon.png', size: 180, svg: FULL(0.9) },
  { file: 'badge-96.png', size: 96, svg: BADGE },
  { file: 'shortcut-topics-96.png', size: 96, svg: shortcut(TOPICS_PATH) },
  { file: 'shortcut-dashboard-96.png', size: 96, svg: shortcut(DASHBOARD_PATH) },
]

const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] })
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } })
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${icon.svg}</body></html>`,
    )
    const png = await page.screenshot({ omitBackground: true, type: 'png' })
    await writeFile(`${PUBLIC}${icon.file}`, png)
    await page.close()
    console.log(`public/${icon.file} (${icon.size}×${icon.size}, ${png.length} bytes)`)
  }
} finally {
  await browser.close()
}
