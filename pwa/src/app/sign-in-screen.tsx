import { ExclamationTriangleIcon } from '@heroicons/react/20/solid'
import { useEffect, useState } from 'react'
import { SIGN_IN_ERROR_PARAM, SIGN_IN_PATH, signInErrorMessage } from '../../../shared/sign-in.ts'
import { LogoMark } from '../components/logo.tsx'
import { buttonClasses } from '../components/ui/button.tsx'
import { Card, CardBody } from '../components/ui/card.tsx'
import { useDocumentTitle } from '../lib/use-document-title.ts'

/** Why the last sign-in failed (once: the reason leaves the address bar after it is read). */
function takeSignInError(): string | null {
  const url = new URL(window.location.href)
  const message = signInErrorMessage(url.searchParams.get(SIGN_IN_ERROR_PARAM))
  if (url.searchParams.has(SIGN_IN_ERROR_PARAM)) {
    url.searchParams.delete(SIGN_IN_ERROR_PARAM)
    window.history.replaceState(null, '', url.pathname + url.search + url.hash)
  }
  return message ?? null
}

/**
 * The signed-out screen (spec section 2): a Welcome card with "Sign in with
 * Microsoft", a browser navigation to the provider under /api/auth/, coming
 * back to the page that was asked for.
 */
export function SignInScreen() {
  useDocumentTitle('Sign in')
  const [error] = useState(takeSignInError)
  const [href, setHref] = useState(SIGN_IN_PATH)
  useEffect(() => {
    const returnTo = window.location.pathname + window.location.search
    setHref(
      returnTo === '/' ? SIGN_IN_PATH : `${SIGN_IN_PATH}?returnTo=${encodeURIComponent(returnTo)}`,
    )
  }, [])
  return (
    <main className="flex min-h-dvh items-center justify-center bg-gradient-to-b from-brand-50 to-slate-50 px-4 py-12 dark:from-slate-900 dark:to-slate-950">
      <Card className="w-full max-w-md">
        <CardBody className="flex flex-col items-center gap-5 py-10 text-center">
          <LogoMark className="size-16" />
          <div>
            <h1 className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">
              Welcome
            </h1>
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
              Sign in with your company account to find a mentor, share what you know, and run your
              own mentorship topics.
            </p>
          </div>
          {error && (
            <p
              role="alert"
              className="flex w-full items-start gap-2 rounded-lg bg-red-50 p-3 text-left text-sm text-red-800 dark:bg-red-950/60 dark:text-red-200"
            >
              <ExclamationTriangleIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              {error}
            </p>
          )}
          <a href={href} className={`${buttonClasses('primary', 'lg')} w-full`}>
            <MicrosoftMark />
            Sign in with Microsoft
          </a>
        </CardBody>
      </Card>
    </main>
  )
}

function MicrosoftMark() {
  return (
    <svg viewBox="0 0 21 21" className="size-5" aria-hidden="true">
      <rect x="1" y="1" width="9" height="9" fill="#f25022" />
      <rect x="11" y="1" width="9" height="9" fill="#7fba00" />
      <rect x="1" y="11" width="9" height="9" fill="#00a4ef" />
      <rect x="11" y="11" width="9" height="9" fill="#ffb900" />
    </svg>
  )
}
