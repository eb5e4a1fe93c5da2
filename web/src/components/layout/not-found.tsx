import { Link } from '@tanstack/react-router'
import { useDocumentTitle } from '../../lib/document-title'

export function NotFound() {
  useDocumentTitle('Not found')
  return (
    <main className="mx-auto max-w-xl p-12 text-center">
      <h1 className="text-3xl font-bold">Not Found</h1>
      <p className="mt-2 text-zinc-600 dark:text-zinc-400">There is no page at this address.</p>
      <Link to="/" className="mt-6 inline-block text-indigo-600 underline dark:text-indigo-400">
        Go to the home page
      </Link>
    </main>
  )
}
