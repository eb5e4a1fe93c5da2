import { createContext, useContext, useMemo, type ReactNode } from 'react'
import { authClient, type Session } from './auth-client'

// The auth context wraps Better Auth's session hook. Its session signal makes the client refetch
// the session after sign-in, sign-up, sign-out, update-user, delete-user and verify-email, so
// every consumer sees the change without wiring it by hand.
export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated'

export interface AuthContextValue {
  status: AuthStatus
  session: Session['session'] | null
  user: Session['user'] | null
  error: Error | null
  refresh: () => Promise<void>
}

const AuthContext = createContext<AuthContextValue | null>(null)

export function AuthProvider({ children }: { children: ReactNode }) {
  const { data, isPending, error, refetch } = authClient.useSession()
  const value = useMemo<AuthContextValue>(
    () => ({
      status: isPending ? 'loading' : data ? 'authenticated' : 'unauthenticated',
      session: data?.session ?? null,
      user: data?.user ?? null,
      error: (error as Error | null) ?? null,
      refresh: async () => {
        await refetch()
      },
    }),
    [data, isPending, error, refetch],
  )
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext)
  if (!ctx) throw new Error('useAuth must be used within an AuthProvider')
  return ctx
}

// getSession is what route guards await before rendering.
export async function getSession(): Promise<Session | null> {
  const { data } = await authClient.getSession()
  return data ?? null
}

// safeRedirect keeps ?redirect= targets on this site: a relative path, never //host or a URL.
export function safeRedirect(target: unknown, fallback = '/dashboard'): string {
  if (typeof target !== 'string' || !target.startsWith('/') || target.startsWith('//') || target.includes('\\')) {
    return fallback
  }
  return target
}
