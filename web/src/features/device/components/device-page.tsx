import { useState, type FormEvent } from 'react'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { authClient } from '../../../lib/auth-client'
import { useAuth } from '../../../lib/auth'
import { Card, Skeleton } from '../../../components/ui/states'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/field'

const clientNames: Record<string, string> = { 'sellertrends-cli': 'The sellertrends command line' }

type Verify = { user_code: string; status: 'pending' | 'approved' | 'denied'; client_id?: string | null; scope?: string | null }
type DeviceError = { error?: string; error_description?: string; message?: string }

// What an error of GET /device or approve/deny means to the person holding the device.
function explain(e: DeviceError | null | undefined): string {
  switch (e?.error) {
    case 'expired_token':
      return 'This code has expired. Start again on your device to get a new one.'
    case 'invalid_request':
      return e.error_description === 'Invalid user code' ? 'This code is not valid. Check it against your device and try again.' : e.error_description ?? 'This code cannot be used.'
    case 'access_denied':
      return 'Another account opened this code first. Start again on your device.'
  }
  return e?.error_description ?? e?.message ?? 'Something went wrong. Try again.'
}

async function verify(code: string): Promise<Verify> {
  const { data, error } = await authClient.device({ query: { user_code: code } })
  if (error) throw new Error(explain(error as DeviceError))
  return data as Verify
}

// /device: the person types (or follows a link with) the code their device shows, sees which
// client asks, and approves or denies it while signed in.
export function DevicePage({ code }: { code?: string }) {
  const navigate = useNavigate()
  const { user } = useAuth()
  const [typed, setTyped] = useState(code ?? '')
  const check = useQuery({ queryKey: ['device', code], queryFn: () => verify(code!), enabled: !!code, retry: false, staleTime: Infinity })
  const decide = useMutation({
    mutationFn: async (approve: boolean) => {
      const body = { userCode: code! }
      const { error } = approve ? await authClient.device.approve(body) : await authClient.device.deny(body)
      if (error) throw new Error(explain(error as DeviceError))
      return approve
    },
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    navigate({ to: '/device', search: { user_code: typed.trim() } })
  }
  return (
    <section aria-labelledby="device-title" className="mx-auto max-w-md space-y-4">
      <h1 id="device-title" className="text-2xl font-semibold">Sign in a device</h1>
      {!code ? (
        <Card title="Enter the code">
          <form onSubmit={submit} className="space-y-3">
            <p className="text-sm">Type the code your device or terminal shows, for example ABCD-EFGH.</p>
            <Field label="Code" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="one-time-code" autoCapitalize="characters" spellCheck={false} required maxLength={64} />
            <Button type="submit">Continue</Button>
          </form>
        </Card>
      ) : check.isPending ? (
        <Skeleton rows={3} label="Checking the code" />
      ) : check.error ? (
        <Card title="This code cannot be used">
          <p role="alert" className="mb-3 text-sm">{check.error.message}</p>
          <Button variant="secondary" onClick={() => { setTyped(''); navigate({ to: '/device', search: {} }) }}>Enter another code</Button>
        </Card>
      ) : decide.isSuccess ? (
        <Card title={decide.data ? 'Device signed in' : 'Request denied'}>
          <p role="status" className="text-sm">
            {decide.data ? 'Done. You can close this page and go back to your device.' : 'The device will not be signed in to your account.'}
          </p>
        </Card>
      ) : check.data.status !== 'pending' ? (
        <Card title="Already answered">
          <p role="status" className="text-sm">This request was already {check.data.status}. Start again on your device if you need to.</p>
        </Card>
      ) : !check.data.client_id ? (
        <Card title="Code in use">
          <p role="alert" className="text-sm">Another account opened this code first. Start again on your device.</p>
        </Card>
      ) : (
        <Card title="Allow this device?">
          <p className="text-sm">
            <strong>{clientNames[check.data.client_id] ?? check.data.client_id}</strong> asks to sign in to your account
            {user && <> (<span className="break-all">{user.email}</span>)</>}. It will be able to do what you can do, until you sign it out from your account page.
          </p>
          <p className="mt-2 text-sm">Code: <span className="font-mono">{check.data.user_code}</span>{check.data.scope ? ` · access: ${check.data.scope}` : ''}</p>
          <p className="mt-2 text-xs text-zinc-500">Only allow it if you started this yourself, on a device you trust.</p>
          {decide.error && <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">{decide.error.message}</p>}
          <div className="mt-3 flex gap-2">
            <Button onClick={() => decide.mutate(true)} disabled={decide.isPending}>Approve</Button>
            <Button variant="secondary" onClick={() => decide.mutate(false)} disabled={decide.isPending}>Deny</Button>
          </div>
        </Card>
      )}
    </section>
  )
}
