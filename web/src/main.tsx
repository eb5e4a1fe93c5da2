import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider, createRouter } from '@tanstack/react-router'
import { QueryClientProvider } from '@tanstack/react-query'
import { routeTree } from './routeTree.gen'
import { createQueryClient } from './lib/query-client'
import { AuthProvider } from './lib/auth'
import { ROUTER } from './config/constants'
import { NotFound } from './components/layout/not-found'
import { ErrorView } from './components/layout/error-view'
import './styles.css'

const queryClient = createQueryClient()

const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultPreload: 'intent',
  defaultPreloadDelay: ROUTER.preloadDelayMs,
  defaultPendingMs: ROUTER.pendingMs,
  defaultPendingMinMs: ROUTER.pendingMinMs,
  defaultNotFoundComponent: NotFound,
  defaultErrorComponent: ErrorView,
})

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router
  }
}

createRoot(document.getElementById('app')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
    </QueryClientProvider>
  </StrictMode>,
)
