import { createFileRoute, Link } from '@tanstack/react-router'
import { useAuth } from '../lib/auth'
import { useDocumentTitle } from '../lib/document-title'
import { Pricing } from '../features/billing/components/billing-page'

export const Route = createFileRoute('/')({ component: Home })

function Home() {
  useDocumentTitle('Amazon search trends for sellers')
  const { status } = useAuth()
  return (
    <main className="mx-auto max-w-4xl px-6 py-16">
      <p className="font-semibold text-indigo-600 dark:text-indigo-400">sellertrends</p>
      <h1 className="mt-4 text-4xl font-bold tracking-tight sm:text-5xl">Know what shoppers search for, before your competitors do.</h1>
      <p className="mt-6 text-lg text-zinc-600 dark:text-zinc-300">
        Import your Brand Analytics search-term reports and see every term's history across years, the terms rising this
        week, what peaks next season, and who wins the clicks. Built for sellers, brands and agencies.
      </p>
      <ul className="mt-8 grid gap-4 sm:grid-cols-3">
        {[
          ['Movers', 'Risers, fallers, new terms and breakouts every week.'],
          ['Seasonality', 'What rose in the coming weeks last year, so stock and ads are ready.'],
          ['Click share', 'The top clicked products and brands of every term, over time.'],
        ].map(([title, text]) => (
          <li key={title} className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
            <h2 className="font-semibold">{title}</h2>
            <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{text}</p>
          </li>
        ))}
      </ul>
      <Link
        to={status === 'authenticated' ? '/dashboard' : '/sign-in'}
        className="mt-10 inline-block rounded-md bg-indigo-600 px-5 py-3 font-medium text-white hover:bg-indigo-500"
      >
        {status === 'authenticated' ? 'Open your dashboard' : 'Sign in or create an account'}
      </Link>
      <div className="mt-16">
        <Pricing />
      </div>
    </main>
  )
}
