// DemoBuilding is what the demo shows on a server's first start, until its data is generated.
export function DemoBuilding({ week, weeks }: { week: number; weeks: number }) {
  return (
    <div role="status" className="rounded-md border border-violet-300 bg-violet-50 p-4 text-sm dark:border-violet-800 dark:bg-violet-950">
      <p className="font-medium">The demo is being generated: week {week} of {weeks}.</p>
      <p className="mt-1 text-zinc-600 dark:text-zinc-400">This happens once, on the server’s first start. This page updates by itself when it is ready.</p>
      <progress className="mt-2 w-full" max={weeks} value={week} aria-label="Demo generation" />
    </div>
  )
}
