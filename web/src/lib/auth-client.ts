import { createAuthClient } from 'better-auth/react'
import { adminClient, deviceAuthorizationClient, organizationClient } from 'better-auth/client/plugins'
import { AUTH_BASE_PATH } from '../config/constants'

// The official Better Auth client, talking to our Go server at /api/auth, with the admin,
// device-authorization and organization (teams, dynamic access control) plugins the server runs.
export const authClient = createAuthClient({
  baseURL: typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
  basePath: AUTH_BASE_PATH,
  plugins: [adminClient(), deviceAuthorizationClient(), organizationClient({ teams: { enabled: true }, dynamicAccessControl: { enabled: true } })],
})

export type Session = typeof authClient.$Infer.Session
