import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/app.tsx'
import { registerServiceWorker } from './app/register-sw.ts'
import { preloadScreenFor } from './app/router.tsx'
import { captureInstallPrompt } from './features/install/install-prompt.ts'
import { startSettled, storedUser } from './lib/session.tsx'
import { releaseSnapshot } from './lib/snapshot.ts'
import './index.css'

captureInstallPrompt()
registerServiceWorker(startSettled)
// A return visit: the screen's code loads beside the session check, not after it.
const lastUser = storedUser()
if (lastUser) preloadScreenFor(lastUser)

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
// boot.js may have put up this screen's last look: down once the app's own has its data.
releaseSnapshot()
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
