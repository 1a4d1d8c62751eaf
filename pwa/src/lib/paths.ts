/**
 * Every route of the app (spec section 2), in one table: the router
 * registers `routes`, and screens link with `paths`, built from the same
 * patterns.
 */
export const routes = {
  home: '/',
  topics: '/topics',
  createTopic: '/create',
  dashboard: '/dashboard',
  profile: '/profile/:username',
  topic: '/topics/:id',
  editTopic: '/topics/:id/edit',
  mentorGuide: '/mentor-guide',
  menteeGuide: '/mentee-guide',
  about: '/about-program',
  notificationSettings: '/settings/notifications',
  adminTopics: '/admin/topics',
  adminUsers: '/admin/users',
  adminInsights: '/admin/insights',
  adminSettings: '/admin/settings',
} as const

/** A route pattern with its `:params` filled in (each value URI-encoded). */
function fill(pattern: string, params: Record<string, string>): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))
}

/** Links to every route. */
export const paths = {
  home: routes.home,
  topics: routes.topics,
  createTopic: routes.createTopic,
  dashboard: routes.dashboard,
  profile: (username: string) => fill(routes.profile, { username }),
  topic: (id: string) => fill(routes.topic, { id }),
  editTopic: (id: string) => fill(routes.editTopic, { id }),
  mentorGuide: routes.mentorGuide,
  menteeGuide: routes.menteeGuide,
  about: routes.about,
  notificationSettings: routes.notificationSettings,
  adminTopics: routes.adminTopics,
  adminUsers: routes.adminUsers,
  adminInsights: routes.adminInsights,
  adminSettings: routes.adminSettings,
} as const
