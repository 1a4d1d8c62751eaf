// The server status page shown until the PWA screens land: it reads /healthz and /api/user.

function show(id: string, text: string): void {
  const element = document.getElementById(id)
  if (element) element.textContent = text
}

async function check(): Promise<void> {
  try {
    const health = await fetch('/healthz')
    show('health', health.ok ? 'Running, database reachable' : `Not healthy (${health.status})`)
  } catch {
    show('health', 'Not reachable')
  }
  try {
    const res = await fetch('/api/user', {
      credentials: 'include',
      headers: { accept: 'application/json' },
    })
    if (res.status === 401)
      return show('user', 'Nobody (sign in with POST /api/auth/dev-login in development)')
    const user = (await res.json()) as { username: string; isAdmin: boolean }
    show('user', `${user.username}${user.isAdmin ? ' (administrator)' : ''}`)
  } catch {
    show('user', 'Unknown')
  }
}

void check()
