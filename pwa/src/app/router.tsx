import { type ReactNode, Suspense, useMemo } from 'react'
import { matchPath, type RouteObject, useLocation, useRoutes } from 'react-router-dom'
import { canAdminister, type User } from '../../../shared/user.ts'
import { PageSpinner } from '../components/ui/spinner.tsx'
import { routes } from '../lib/paths.ts'
import { AppLayout } from './layout.tsx'
import { NotFound } from './not-found.tsx'
import { type ScreenChunk, screenChunk } from './screen-chunk.ts'
import { ScreenErrorBoundary } from './screen-error-boundary.tsx'

// Each screen is its own chunk: the first load carries only the shell and the screen opened.
const screens = {
  home: screenChunk(() => import('../features/static/landing.tsx')),
  about: screenChunk(() => import('../features/static/about.tsx')),
  mentorGuide: screenChunk(() => import('../features/static/mentor-guide.tsx')),
  menteeGuide: screenChunk(() => import('../features/static/mentee-guide.tsx')),
  topics: screenChunk(() => import('../features/topics/topic-list.tsx')),
  topic: screenChunk(() => import('../features/topics/topic-detail.tsx')),
  createTopic: screenChunk(() => import('../features/topic-form/create-topic.tsx')),
  editTopic: screenChunk(() => import('../features/topic-form/edit-topic.tsx')),
  dashboard: screenChunk(() => import('../features/dashboard/dashboard.tsx')),
  profile: screenChunk(() => import('../features/profile/profile.tsx')),
  notificationSettings: screenChunk(() => import('../features/notifications/settings.tsx')),
  adminTopics: screenChunk(() => import('../features/admin/admin-topics.tsx')),
  adminUsers: screenChunk(() => import('../features/admin/admin-users.tsx')),
  adminSettings: screenChunk(() => import('../features/admin/programme-settings.tsx')),
  // Charts and CSV writing are only in this chunk: nobody else downloads them.
  adminInsights: screenChunk(() => import('../features/insights/insights-screen.tsx')),
} satisfies Record<keyof typeof routes, ScreenChunk>

/**
 * Starts loading the code of the screen at the current address, if a route
 * matches it, for `user`: at startup for the person last signed in on this
 * device, and once the server names who is signed in, so the screen's chunk
 * comes while the session is checked and the local database opens, not
 * after. Admin screens only for an administrator.
 */
export function preloadScreenFor(user: User): void {
  const admin = canAdminister(user)
  const pathname = window.location.pathname
  for (const [name, pattern] of Object.entries(routes)) {
    if (!admin && name.startsWith('admin')) continue
    if (matchPath(pattern, pathname)) {
      // A chunk that fails here (offline, not cached) is loaded again when the screen renders.
      screens[name as keyof typeof routes].preload().catch(() => {})
      return
    }
  }
}

function screen(element: ReactNode): ReactNode {
  return <Suspense fallback={<PageSpinner />}>{element}</Suspense>
}

/**
 * The route table of spec section 2. React Router matches paths
 * case-insensitively and supports named parameters, optional segments and
 * wildcards; the admin routes exist only in an administrator's router.
 */
function appRoutes(withAdminScreens: boolean): RouteObject[] {
  const children: RouteObject[] = [
    { index: true, element: screen(<screens.home />) },
    { path: routes.topics, element: screen(<screens.topics />) },
    { path: routes.createTopic, element: screen(<screens.createTopic />) },
    { path: routes.dashboard, element: screen(<screens.dashboard />) },
    { path: routes.profile, element: screen(<screens.profile />) },
    { path: routes.topic, element: screen(<screens.topic />) },
    { path: routes.editTopic, element: screen(<screens.editTopic />) },
    { path: routes.mentorGuide, element: screen(<screens.mentorGuide />) },
    { path: routes.menteeGuide, element: screen(<screens.menteeGuide />) },
    { path: routes.about, element: screen(<screens.about />) },
    { path: routes.notificationSettings, element: screen(<screens.notificationSettings />) },
  ]
  if (withAdminScreens) {
    children.push(
      { path: routes.adminTopics, element: screen(<screens.adminTopics />) },
      { path: routes.adminUsers, element: screen(<screens.adminUsers />) },
      { path: routes.adminInsights, element: screen(<screens.adminInsights />) },
      { path: routes.adminSettings, element: screen(<screens.adminSettings />) },
    )
  }
  children.push({ path: '*', element: <NotFound /> })
  return [{ path: routes.home, element: <AppLayout />, children }]
}

/**
 * The routes, inside the app's BrowserRouter. A declarative router, not the
 * data router (decision 0046): the app loads no data through the router.
 * What a screen throws shows RouteError in the frame's place.
 */
export function AppRoutes(props: { withAdminScreens: boolean }) {
  const { withAdminScreens } = props
  const table = useMemo(() => appRoutes(withAdminScreens), [withAdminScreens])
  const element = useRoutes(table)
  const { pathname } = useLocation()
  return <ScreenErrorBoundary resetKey={pathname}>{element}</ScreenErrorBoundary>
}
