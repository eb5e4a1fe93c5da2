import { useQuery } from '@tanstack/react-query'
import { AUTH_BASE_PATH } from '../config/constants'

// useSocialProviders asks the server which identity providers are configured (ids only).
export function useSocialProviders() {
  return useQuery({
    queryKey: ['social-providers'],
    queryFn: async (): Promise<string[]> => {
      const res = await fetch(`${AUTH_BASE_PATH}/social-providers`, { credentials: 'same-origin' })
      if (!res.ok) throw new Error(`Could not load sign-in providers (${res.status})`)
      const body = (await res.json()) as { providers?: unknown }
      return Array.isArray(body.providers) ? body.providers.filter((p): p is string => typeof p === 'string') : []
    },
    staleTime: Infinity,
  })
}
