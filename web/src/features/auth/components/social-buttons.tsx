import { useState } from 'react'
import { toast } from 'sonner'
import { authClient } from '../../../lib/auth-client'
import { safeRedirect } from '../../../lib/auth'
import { useSocialProviders } from '../../../lib/social-providers'
import { providerName } from '../../../config/social'
import { Button } from '../../../components/ui/button'

// SocialButtons offers one button per provider the server has configured; the provider's
// callback comes back to the redirect target, or to /sign-in with an error code on failure.
export function SocialButtons({ redirect }: { redirect?: string }) {
  const providers = useSocialProviders()
  const [busy, setBusy] = useState<string>()
  if (!providers.data?.length) return null
  const start = async (provider: string) => {
    setBusy(provider)
    const to = safeRedirect(redirect)
    const { error } = await authClient.signIn.social({ provider, callbackURL: to, newUserCallbackURL: to, errorCallbackURL: '/sign-in' })
    if (error) {
      toast.error(error.message ?? 'Could not start the sign-in')
      setBusy(undefined)
    }
  }
  return (
    <div className="mt-6">
      <p className="mb-3 flex items-center gap-3 text-xs uppercase tracking-wide text-zinc-500 before:h-px before:flex-1 before:bg-zinc-200 after:h-px after:flex-1 after:bg-zinc-200 dark:before:bg-zinc-800 dark:after:bg-zinc-800">
        or continue with
      </p>
      <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2" aria-label="Sign in with a provider">
        {providers.data.map((id) => (
          <li key={id}>
            <Button variant="secondary" className="w-full" disabled={busy !== undefined} onClick={() => start(id)} data-provider={id}>
              {busy === id ? 'Redirecting…' : providerName(id)}
            </Button>
          </li>
        ))}
      </ul>
    </div>
  )
}
