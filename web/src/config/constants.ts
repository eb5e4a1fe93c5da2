// The spec's client-side constants (§2, §9), in one place.
export const TOASTS = { visible: 3, durationMs: 4000, widthPx: 356 } as const
export const QUERY = { gcTimeMs: 5 * 60 * 1000, retries: 3, maxRetryDelayMs: 30_000 } as const
export const ROUTER = { preloadDelayMs: 50, pendingMs: 1000, pendingMinMs: 500 } as const
export const AUTH_BASE_PATH = '/api/auth'
export const THEMES = ['light', 'dark'] as const
export type Theme = (typeof THEMES)[number]
