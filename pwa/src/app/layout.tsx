import { Outlet } from 'react-router-dom'
import { useReportTimeZone } from '../features/notifications/report-time-zone.ts'
import { SyncBanner } from '../features/sync-status/sync-banner.tsx'
import { NavBar } from './nav-bar.tsx'
import { useScrollRestoration } from './scroll-restoration.ts'

/**
 * The signed-in frame: skip link, navigation bar, sync banners, the screen.
 * A new route starts at the top; Back and Forward put the page back where it
 * was (scroll-restoration.ts).
 * The browser's time zone is saved in the preferences when they have none.
 */
export function AppLayout() {
  useReportTimeZone()
  // Reads the address, so the frame draws again with each one and the new screen and the
  // scroll restoration commit together, screen first. Preact commits each component that a
  // context update reaches on its own, shallowest first: without this, Back's position would be
  // put on the previous screen's height (clamped) before the list it belongs to is drawn.
  useScrollRestoration()
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-[60] rounded-md bg-white px-3 py-2 text-sm font-medium text-brand-700 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <NavBar />
      <SyncBanner />
      <main
        id="main"
        tabIndex={-1}
        // At least a screen high: the footer starts below the fold and never jumps as data arrives.
        className="mx-auto min-h-[calc(100dvh-4rem)] w-full max-w-6xl flex-1 px-4 py-6 focus:outline-none sm:px-6 sm:py-8 lg:px-8"
      >
        <Outlet />
      </main>
      <footer className="border-t border-slate-200 py-6 text-center text-xs text-slate-500 dark:border-slate-800 dark:text-slate-400">
        Pairwise Mentorship · Connect, learn, and grow
      </footer>
    </div>
  )
}
