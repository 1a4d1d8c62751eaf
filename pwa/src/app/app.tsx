import { useEffect, useRef, useSyncExternalStore } from 'react'
import { BrowserRouter, useNavigate } from 'react-router-dom'
import { PREFERENCES_SAVE_FAILED } from '../../../shared/constants.ts'
import { SIGNED_IN_PARAM } from '../../../shared/sign-in.ts'
import { canAdminister } from '../../../shared/user.ts'
import { toast, toastError, toastSuccess } from '../components/toast/store.ts'
import { Toaster } from '../components/toast/toaster.tsx'
import { Button } from '../components/ui/button.tsx'
import { MessageCard } from '../components/ui/page.tsx'
import { PageSpinner } from '../components/ui/spinner.tsx'
import { UpdatePrompt } from '../features/update/update-prompt.tsx'
import { SessionProvider, storedUser, useSession, useSignedIn } from '../lib/session.tsx'
import { keepSnapshots } from '../lib/snapshot.ts'
import { isAwaited } from '../lib/use-change.ts'
import { useCurrentUser } from '../lib/use-current-user.ts'
import { SyncProvider } from '../sync/engine/react.ts'
import { applyUpdate, getUpdateState, onSyncPoke, subscribeUpdateState } from './register-sw.ts'
import { AppRoutes, preloadScreenFor } from './router.tsx'
import { SignInScreen } from './sign-in-screen.tsx'

/** The app: who is signed in decides between the spinner, the sign-in screen and the app. */
export function App() {
  return (
    <SessionProvider onUser={preloadScreenFor}>
      <Shell />
      <AppUpdatePrompt />
      <Toaster />
    </SessionProvider>
  )
}

/** A new version waits: the update prompt, held back while the signed-in user's changes are still being sent. */
function AppUpdatePrompt() {
  const session = useSession()
  const update = useSyncExternalStore(subscribeUpdateState, getUpdateState, getUpdateState)
  if (update === 'none') return null
  const engine = session.state === 'signed-in' ? session.engine : undefined
  return (
    <UpdatePrompt
      status={engine?.status}
      onReload={() => applyUpdate(engine && (() => engine.suspend()))}
    />
  )
}

function Shell() {
  const session = useSession()
  switch (session.state) {
    case 'loading':
      return (
        <div className="flex min-h-dvh items-center justify-center">
          <PageSpinner />
        </div>
      )
    case 'signed-out':
      return <SignInScreen />
    case 'unavailable':
      return (
        <div className="px-4 py-16">
          <MessageCard
            title="Pairwise is not reachable"
            actions={<Button onClick={session.retry}>Try again</Button>}
          >
            <p>
              The server did not answer ({session.message}). Check your connection and try again.
            </p>
          </MessageCard>
        </div>
      )
    case 'signed-in':
      return (
        <SyncProvider engine={session.engine}>
          <SignedInApp />
        </SyncProvider>
      )
  }
}

function SignedInApp() {
  const { engine } = useSignedIn()
  const me = useCurrentUser()
  const admin = canAdminister(me)

  // The screens' last looks, for the next start on this device (decision 0050).
  useEffect(() => keepSnapshots(me.id, () => storedUser()?.id === me.id), [me.id])

  // A change the server refused after the screen stopped waiting for it: say so (spec
  // section 8: preferences in their own words, a notification's mark-read not at all).
  useEffect(
    () =>
      engine.onRejected((row) => {
        if (isAwaited(row.id) || row.kind === 'mark-notification-read') return
        toastError(row.kind === 'save-preferences' ? PREFERENCES_SAVE_FAILED : row.detail)
      }),
    [engine],
  )

  // Back from the development sign-in: say so once, and drop the mark from the address.
  useEffect(() => {
    const url = new URL(window.location.href)
    if (url.searchParams.get(SIGNED_IN_PARAM) !== 'dev') return
    url.searchParams.delete(SIGNED_IN_PARAM)
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash)
    toastSuccess('Development Login Success')
  }, [])

  // A push message arrived (the service worker says so): pull now.
  useEffect(() => onSyncPoke(() => engine.poke()), [engine])

  return (
    <BrowserRouter>
      <AdminRightsWatch admin={admin} />
      {/* Admin routes are registered only for an administrator. */}
      <AppRoutes withAdminScreens={admin} />
    </BrowserRouter>
  )
}

/**
 * Administrator rights removed by another administrator (the next sync brings it):
 * off the admin screens, and told why, rather than left on a page that is gone.
 */
function AdminRightsWatch(props: { admin: boolean }) {
  const { admin } = props
  const navigate = useNavigate()
  const wasAdmin = useRef(admin)
  useEffect(() => {
    if (wasAdmin.current && !admin) {
      if (window.location.pathname.toLowerCase().startsWith('/admin/')) {
        navigate('/', { replace: true })
      }
      toast({
        variant: 'info',
        title: 'Administrator rights removed',
        description:
          'An administrator removed your administrator rights. The admin screens are closed.',
      })
    }
    wasAdmin.current = admin
  }, [admin, navigate])
  return null
}
