import { lazy, type ReactNode, Suspense } from 'react'
import { createBrowserRouter, type RouteObject } from 'react-router-dom'
import { PageSpinner } from '../components/ui/spinner.tsx'
import { routes } from '../lib/paths.ts'
import { AppLayout } from './layout.tsx'
import { NotFound } from './not-found.tsx'
import { RouteError } from './route-error.tsx'

// Each screen is its own chunk: the first load carries only the shell and the screen opened.
const Landing = lazy(() => import('../features/static/landing.tsx'))
const About = lazy(() => import('../features/static/about.tsx'))
const MentorGuide = lazy(() => import('../features/static/mentor-guide.tsx'))
const MenteeGuide = lazy(() => import('../features/static/mentee-guide.tsx'))
const TopicList = lazy(() => import('../features/topics/topic-list.tsx'))
const TopicDetail = lazy(() => import('../features/topics/topic-detail.tsx'))
const CreateTopic = lazy(() => import('../features/topic-form/create-topic.tsx'))
const EditTopic = lazy(() => import('../features/topic-form/edit-topic.tsx'))
const Dashboard = lazy(() => import('../features/dashboard/dashboard.tsx'))
const Profile = lazy(() => import('../features/profile/profile.tsx'))
const NotificationSettings = lazy(() => import('../features/notifications/settings.tsx'))
const AdminTopics = lazy(() => import('../features/admin/admin-topics.tsx'))
const AdminUsers = lazy(() => import('../features/admin/admin-users.tsx'))
const ProgrammeSettings = lazy(() => import('../features/admin/programme-settings.tsx'))
// Charts and CSV writing are only in this chunk: nobody else downloads them.
const AdminInsights = lazy(() => import('../features/insights/insights-screen.tsx'))

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
    { index: true, element: screen(<Landing />) },
    { path: routes.topics, element: screen(<TopicList />) },
    { path: routes.createTopic, element: screen(<CreateTopic />) },
    { path: routes.dashboard, element: screen(<Dashboard />) },
    { path: routes.profile, element: screen(<Profile />) },
    { path: routes.topic, element: screen(<TopicDetail />) },
    { path: routes.editTopic, element: screen(<EditTopic />) },
    { path: routes.mentorGuide, element: screen(<MentorGuide />) },
    { path: routes.menteeGuide, element: screen(<MenteeGuide />) },
    { path: routes.about, element: screen(<About />) },
    { path: routes.notificationSettings, element: screen(<NotificationSettings />) },
  ]
  if (withAdminScreens) {
    children.push(
      { path: routes.adminTopics, element: screen(<AdminTopics />) },
      { path: routes.adminUsers, element: screen(<AdminUsers />) },
      { path: routes.adminInsights, element: screen(<AdminInsights />) },
      { path: routes.adminSettings, element: screen(<ProgrammeSettings />) },
    )
  }
  children.push({ path: '*', element: <NotFound /> })
  return [{ path: routes.home, element: <AppLayout />, errorElement: <RouteError />, children }]
}

export function createAppRouter(withAdminScreens: boolean) {
  return createBrowserRouter(appRoutes(withAdminScreens))
}
