import { Button } from '../components/ui/button.tsx'
import { MessageCard } from '../components/ui/page.tsx'

/**
 * What shows when a screen fails to render or its code cannot be loaded
 * (typically: offline, and a new release replaced the chunk). Never a blank page.
 */
export function RouteError(props: { error: unknown }) {
  const { error } = props
  const chunkMissing =
    error instanceof TypeError && /dynamically imported module|Failed to fetch/i.test(error.message)
  const message = chunkMissing
    ? 'This screen could not be loaded. Check your connection, then reload.'
    : 'Something went wrong while showing this screen. Reloading usually helps.'
  return (
    <div className="px-4 py-10">
      <MessageCard
        title="This screen could not be shown"
        actions={<Button onClick={() => window.location.reload()}>Reload</Button>}
      >
        <p>{message}</p>
      </MessageCard>
    </div>
  )
}
