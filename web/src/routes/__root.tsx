import { Outlet, createRootRouteWithContext } from '@tanstack/react-router'
import type { QueryClient } from '@tanstack/react-query'
import { Toaster } from 'sonner'
import { TOASTS } from '../config/constants'

export interface RouterContext {
  queryClient: QueryClient
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
})

// The root layout: the server already rendered lang, dir and the theme class into <html>.
function RootLayout() {
  return (
    <>
      <Outlet />
      <Toaster visibleToasts={TOASTS.visible} duration={TOASTS.durationMs} style={{ width: TOASTS.widthPx }} richColors closeButton />
    </>
  )
}
