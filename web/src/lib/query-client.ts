import { QueryClient } from '@tanstack/react-query'
import { QUERY } from '../config/constants'

// Exponential backoff: 1 s, 2 s, 4 s … capped at 30 s (spec §9).
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, QUERY.maxRetryDelayMs)
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { gcTime: QUERY.gcTimeMs, retry: QUERY.retries, retryDelay },
    },
  })
}
