import { UserIcon } from '@heroicons/react/24/outline'
import { useParams } from 'react-router-dom'
import { checkEditProfile } from '../../../../shared/user.ts'
import { LinkButton } from '../../components/ui/button.tsx'
import { MessageCard } from '../../components/ui/page.tsx'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { paths } from '../../lib/paths.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { useSynced, useSyncStatus } from '../../sync/engine/react.ts'
import { readUserByUsername } from '../../sync/engine/view.ts'
import { ProfileForm } from './profile-form.tsx'
import { ProfileHeader } from './profile-header.tsx'
import { ProfileView } from './profile-view.tsx'

/**
 * /profile/{username} (spec section 2): who the person is, and their
 * seniority, bio and interests: a form for the owner and administrators, a
 * profile to read (with the topics they mentor) for everyone else.
 */
export default function Profile() {
  const { username = '' } = useParams()
  const viewer = useCurrentUser()
  const { lastSyncedAt } = useSyncStatus()
  const user = useSynced(async (db) => (await readUserByUsername(db, username)) ?? null, [username])
  useDocumentTitle(user ? user.full_name || user.username : 'Profile')

  // Before the first sync has finished, an unknown name may simply not have arrived yet.
  if (user === undefined || (user === null && lastSyncedAt === null)) {
    return <PageSpinner text="Loading profile..." />
  }
  if (user === null) {
    return (
      <MessageCard
        title="User not found"
        actions={
          <LinkButton to={paths.home} variant="secondary">
            Back to home
          </LinkButton>
        }
      >
        <p className="flex items-center justify-center gap-2">
          <UserIcon className="size-5" aria-hidden="true" />
          There is no user called “{username}”.
        </p>
      </MessageCard>
    )
  }
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <ProfileHeader user={user} />
      {checkEditProfile(viewer, user.id).ok ? (
        <ProfileForm key={user.id} user={user} viewer={viewer} />
      ) : (
        <ProfileView user={user} viewer={viewer} />
      )}
    </div>
  )
}
