import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/app.tsx'
import { registerServiceWorker } from './app/register-sw.ts'
import { captureInstallPrompt } from './features/install/install-prompt.ts'
import './index.css'

captureInstallPrompt()
registerServiceWorker()

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
