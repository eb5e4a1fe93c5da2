import { useEffect, useRef, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { authClient } from '../../../lib/auth-client'
import { useSocialProviders } from '../../../lib/social-providers'
import { fmtDate } from '../../../lib/format'
import { oauthErrorText, providerName } from '../../../config/social'
import { Card, ErrorState, Skeleton } from '../../../components/ui/states'
import { Button } from '../../../components/ui/button'

const here = '/dashboard/account'

// LinkedAccounts lists the sign-in methods of the user with unlink (never the last one: the
// user would be locked out) and offers to link each configured provider not linked yet. The
// provider comes back here, with ?error= when linking failed.
export function LinkedAccounts() {
  const qc = useQueryClient()
  const providers = useSocialProviders()
  const [linking, setLinking] = useState<string>()
  const accounts = useQuery({
    queryKey: ['accounts'],
    queryFn: async () => {
      const { data, error } = await authClient.listAccounts()
      if (error) throw new Error(error.message ?? 'Could not load your sign-in methods')
      return data ?? []
    },
  })
  const shown = useRef(false)
  useEffect(() => { // a failed link comes back with the callback's error code
    const q = new URLSearchParams(window.location.search)
    const code = q.get('error')
    if (code && !shown.current) {
      shown.current = true
      toast.error(oauthErrorText(code, q.get('error_description') ?? undefined))
    }
  }, [])
  const unlink = useMutation({
    mutationFn: async (a: { providerId: string; accountId: string }) => {
      // Our server's unlink-account takes {providerId, accountId (the provider's id)}, the shape
      // Better Auth had before 1.7 (whose client types know only accountId).
      const body = { providerId: a.providerId, accountId: a.accountId } as unknown as Parameters<typeof authClient.unlinkAccount>[0]
      const { error } = await authClient.unlinkAccount(body)
      if (error) throw new Error(error.message ?? 'Could not unlink')
    },
    onSuccess: (_d, a) => {
      toast.success(`${providerName(a.providerId)} unlinked`)
      qc.invalidateQueries({ queryKey: ['accounts'] })
    },
    onError: (e) => toast.error(e.message),
  })
  const link = async (provider: string) => {
    setLinking(provider)
    const { error } = await authClient.linkSocial({ provider, callbackURL: here, errorCallbackURL: here })
    if (error) {
      toast.error(error.message ?? 'Could not start linking')
      setLinking(undefined)
    }
  }
  if (accounts.isPending) return <Card title="Sign-in methods"><Skeleton rows={1} /></Card>
  if (accounts.error) return <Card title="Sign-in methods"><ErrorState error={accounts.error} retry={() => accounts.refetch()} /></Card>
  const list = accounts.data
  const linked = new Set(list.map((a) => a.providerId))
  const linkable = (providers.data ?? []).filter((id) => !linked.has(id))
  const last = list.length <= 1
  return (
    <Card title="Sign-in methods">
      <ul className="divide-y divide-zinc-100 text-sm dark:divide-zinc-800" aria-label="Linked sign-in methods">
        {list.map((a) => (
          <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 py-2" data-provider={a.providerId}>
            <span className="min-w-0">
              <span className="font-medium">{providerName(a.providerId)}</span>
              <span className="block text-xs text-zinc-500">linked {fmtDate(String(a.createdAt))}</span>
            </span>
            <Button
              variant="ghost"
              disabled={last || unlink.isPending}
              title={last ? 'This is your only way to sign in: link another one first' : undefined}
              aria-label={`Unlink ${providerName(a.providerId)}`}
              onClick={() => confirm(`Stop signing in with ${providerName(a.providerId)}?`) && unlink.mutate({ providerId: a.providerId, accountId: a.accountId })}
            >
              Unlink
            </Button>
          </li>
        ))}
      </ul>
      {last && <p className="mt-2 text-xs text-zinc-500">Your only sign-in method cannot be removed; link another one first.</p>}
      {linkable.length > 0 && (
        <div className="mt-4">
          <p className="mb-2 text-sm font-medium">Link another way to sign in</p>
          <ul className="flex flex-wrap gap-2">
            {linkable.map((id) => (
              <li key={id}>
                <Button variant="secondary" disabled={linking !== undefined} onClick={() => link(id)} aria-label={`Link ${providerName(id)}`}>
                  {linking === id ? 'Redirecting…' : providerName(id)}
                </Button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  )
}
