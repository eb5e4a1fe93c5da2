import { createAuthClient } from 'better-auth/react'
import { AUTH_BASE_PATH } from '../config/constants'

// The official Better Auth client, talking to our Go server at /api/auth.
export const authClient = createAuthClient({
  baseURL: typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
  basePath: AUTH_BASE_PATH,
})

export type Session = typeof authClient.$Infer.Session
