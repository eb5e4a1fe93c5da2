import { createAuthClient } from 'better-auth/react'
import { adminClient, deviceAuthorizationClient } from 'better-auth/client/plugins'
import { AUTH_BASE_PATH } from '../config/constants'

// The official Better Auth client, talking to our Go server at /api/auth, with the admin and
// device-authorization plugins the server runs.
export const authClient = createAuthClient({
  baseURL: typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
  basePath: AUTH_BASE_PATH,
  plugins: [adminClient(), deviceAuthorizationClient()],
})

export type Session = typeof authClient.$Infer.Session
