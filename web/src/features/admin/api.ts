import { useQuery } from '@tanstack/react-query'
import { api } from '../../lib/api-client'
import { authClient } from '../../lib/auth-client'

// Better Auth's client answers {data, error}; unwrap turns an error into a thrown Error.
export async function unwrap<T>(p: Promise<{ data: T | null; error: { message?: string; status?: number } | null }>): Promise<T> {
  const { data, error } = await p
  if (error) throw new Error(error.message || `Request failed (${error.status ?? 'network'})`)
  return data as T
}

// isAdmin asks the server (has-permission), which also counts configured admins whatever
// their role; the admin endpoints check again on every call.
export async function isAdmin(): Promise<boolean> {
  const { data } = await authClient.admin.hasPermission({ permissions: { user: ['list'] } })
  return data?.success === true
}

export function useIsAdmin(enabled = true) {
  return useQuery({ queryKey: ['is-admin'], queryFn: isAdmin, enabled, staleTime: 60_000 })
}

export type AdminUser = {
  id: string
  name: string
  email: string
  emailVerified: boolean
  image?: string | null
  role?: string | null
  banned?: boolean | null
  banReason?: string | null
  banExpires?: string | Date | null
  createdAt: string | Date
}

export const pageSize = 20

export type UsersQuery = {
  search: string
  field: 'email' | 'name'
  sortBy: 'createdAt' | 'email' | 'name' | 'role'
  dir: 'asc' | 'desc'
  page: number
}

export function useUsers(q: UsersQuery) {
  return useQuery({
    queryKey: ['admin-users', q],
    queryFn: () =>
      unwrap(
        authClient.admin.listUsers({
          query: {
            // Emails are stored lowercase; PostgreSQL's LIKE is case-sensitive.
            searchValue: q.search ? (q.field === 'email' ? q.search.toLowerCase() : q.search) : undefined,
            searchField: q.field,
            searchOperator: 'contains',
            sortBy: q.sortBy,
            sortDirection: q.dir,
            limit: pageSize,
            offset: q.page * pageSize,
          },
        }),
      ) as Promise<{ users: AdminUser[]; total: number }>,
    placeholderData: (prev) => prev,
  })
}

// Figures are the operator's counts and store sizes (GET /api/admin/figures, admins only).
export type Figures = {
  users: number
  activeSessions: number
  workspaces: number
  datasets: number
  importsLastDay: number
  stores: { sqlBytes: number; sqlKind: 'sqlite' | 'postgres'; duckdbBytes: number }
  duckdbFiles: { name: string; bytes: number }[]
  at: string
}

export function useFigures() {
  return useQuery({ queryKey: ['admin-figures'], queryFn: () => api<Figures>('/api/admin/figures'), staleTime: 30_000 })
}
