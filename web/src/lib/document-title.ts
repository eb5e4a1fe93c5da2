import { useEffect } from 'react'

// useDocumentTitle gives each page its own title (browser tabs, history, screen readers).
export function useDocumentTitle(title: string | undefined) {
  useEffect(() => {
    if (title) document.title = `${title} · sellertrends`
  }, [title])
}
