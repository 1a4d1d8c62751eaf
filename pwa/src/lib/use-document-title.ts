import { useEffect } from 'react'

/** Sets the tab's title to "{title} · Pairwise" while the screen shows. */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · Pairwise` : 'Pairwise Mentorship'
  }, [title])
}
