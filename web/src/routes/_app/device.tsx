import { createFileRoute } from '@tanstack/react-router'
import { DevicePage } from '../../features/device/components/device-page'

// /device?user_code=: the verification page of the device flow (RFC 8628). Under the signed-in
// layout, so a visitor signs in first and comes back with the code.
export const Route = createFileRoute('/_app/device')({
  validateSearch: (s: Record<string, unknown>): { user_code?: string } => ({
    user_code: typeof s.user_code === 'string' && s.user_code.length <= 64 ? s.user_code : undefined,
  }),
  component: DeviceRoute,
})

function DeviceRoute() {
  const { user_code } = Route.useSearch()
  return <DevicePage key={user_code ?? ''} code={user_code} />
}
