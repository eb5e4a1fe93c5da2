import { useState } from 'react'
import type { ErrorComponentProps } from '@tanstack/react-router'

// The default error view: 'Something went wrong!' with the message behind a toggle.
export function ErrorView({ error }: ErrorComponentProps) {
  const [shown, setShown] = useState(false)
  return (
    <div role="alert" className="mx-auto max-w-xl p-8">
      <h2 className="text-xl font-semibold">Something went wrong!</h2>
      <button
        type="button"
        className="mt-3 rounded border border-zinc-300 px-3 py-1 text-sm dark:border-zinc-700"
        aria-expanded={shown}
        onClick={() => setShown((s) => !s)}
      >
        {shown ? 'Hide Error' : 'Show Error'}
      </button>
      {shown && (
        <pre className="mt-3 overflow-auto rounded bg-red-50 p-3 text-sm text-red-700 dark:bg-red-950 dark:text-red-300">
          {error instanceof Error ? error.message : String(error)}
        </pre>
      )}
    </div>
  )
}
