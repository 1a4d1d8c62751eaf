import { LinkButton } from '../components/ui/button.tsx'
import { MessageCard } from '../components/ui/page.tsx'
import { paths } from '../lib/paths.ts'
import { useDocumentTitle } from '../lib/use-document-title.ts'

/** Any path the route table does not know (spec section 2). */
export function NotFound() {
  useDocumentTitle('Page not found')
  return (
    <MessageCard
      title="404 Page Not Found"
      actions={
        <LinkButton to={paths.home} variant="secondary">
          Back to home
        </LinkButton>
      }
    >
      <p>The page you're looking for doesn't exist.</p>
    </MessageCard>
  )
}
