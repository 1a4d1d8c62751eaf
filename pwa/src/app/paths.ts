/**
 * Every route of the app (spec section 2), in one place: screens link with
 * these, the router registers them.
 */
export const paths = {
  home: '/',
  topics: '/topics',
  createTopic: '/create',
  dashboard: '/dashboard',
  profile: (username: string) => `/profile/${encodeURIComponent(username)}`,
  topic: (id: string) => `/topics/${encodeURIComponent(id)}`,
  editTopic: (id: string) => `/topics/${encodeURIComponent(id)}/edit`,
  mentorGuide: '/mentor-guide',
  menteeGuide: '/mentee-guide',
  about: '/about-program',
  notificationSettings: '/settings/notifications',
  adminTopics: '/admin/topics',
  adminUsers: '/admin/users',
  adminInsights: '/admin/insights',
} as const
