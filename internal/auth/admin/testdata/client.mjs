// Drives the official better-auth client with adminClient and deviceAuthorizationClient against
// the Go server at argv[2]: the admin signs in (argv[3], argv[4]) and manages a user, then a
// device is approved. Prints one JSON line per step.
import { createAuthClient } from 'better-auth/client'
import { adminClient, deviceAuthorizationClient } from 'better-auth/client/plugins'

const [base, adminEmail, adminPassword] = process.argv.slice(2)
const jar = new Map()
const fetchWithCookies = async (input, init = {}) => {
  const headers = new Headers(init.headers)
  headers.set('origin', base)
  if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '))
  const res = await fetch(input, { ...init, headers })
  for (const sc of res.headers.getSetCookie()) {
    const [pair, ...attrs] = sc.split(';')
    const i = pair.indexOf('=')
    if (attrs.some((a) => /max-age=(0|-)/i.test(a.trim()))) jar.delete(pair.slice(0, i))
    else jar.set(pair.slice(0, i), pair.slice(i + 1))
  }
  return res
}
const client = createAuthClient({
  baseURL: base, basePath: '/api/auth',
  plugins: [adminClient(), deviceAuthorizationClient()],
  fetchOptions: { customFetchImpl: fetchWithCookies },
})
// The device has no cookies.
const device = createAuthClient({ baseURL: base, basePath: '/api/auth', plugins: [deviceAuthorizationClient()] })
const out = (step, value) => console.log(JSON.stringify({ step, ...value }))
const err = (r) => (r.error ? { status: r.error.status, code: r.error.code ?? r.error.error } : null)

let r = await client.signIn.email({ email: adminEmail, password: adminPassword })
out('sign-in', { error: err(r) })
r = await client.admin.createUser({ email: 'client-made@example.com', password: 'password123', name: 'Client Made', role: 'user' })
out('create-user', { error: err(r), role: r.data?.user?.role })
const id = r.data?.user?.id
r = await client.admin.listUsers({ query: { searchValue: 'client-made', limit: 10 } })
out('list-users', { error: err(r), total: r.data?.total, email: r.data?.users?.[0]?.email, limit: r.data?.limit })
r = await client.admin.getUser({ query: { id } })
out('get-user', { error: err(r), email: r.data?.email })
r = await client.admin.updateUser({ userId: id, data: { name: 'Renamed' } })
out('update-user', { error: err(r), name: r.data?.name })
r = await client.admin.setRole({ userId: id, role: ['user', 'admin'] })
out('set-role', { error: err(r), role: r.data?.user?.role })
r = await client.admin.setRole({ userId: id, role: 'user' })
r = await client.admin.setUserPassword({ userId: id, newPassword: 'password456' })
out('set-user-password', { error: err(r), status: r.data?.status })
r = await client.admin.banUser({ userId: id, banReason: 'spam', banExpiresIn: 60 })
out('ban-user', { error: err(r), banned: r.data?.user?.banned, reason: r.data?.user?.banReason })
r = await client.admin.unbanUser({ userId: id })
out('unban-user', { error: err(r), banned: r.data?.user?.banned })
r = await client.admin.hasPermission({ permissions: { user: ['ban'], session: ['revoke'] } })
out('has-permission', { error: err(r), success: r.data?.success })
r = await client.admin.impersonateUser({ userId: id })
out('impersonate-user', { error: err(r), user: r.data?.user?.email })
r = await client.getSession({ query: { disableCookieCache: true } })
out('session-impersonating', { email: r.data?.user?.email, impersonatedBy: !!r.data?.session?.impersonatedBy })
r = await client.admin.stopImpersonating()
out('stop-impersonating', { error: err(r), user: r.data?.user?.email })
r = await client.admin.listUserSessions({ userId: id })
out('list-user-sessions', { error: err(r), count: r.data?.sessions?.length })
r = await client.admin.revokeUserSessions({ userId: id })
out('revoke-user-sessions', { error: err(r), success: r.data?.success })

// The device flow: code, pending, the admin opens and approves, then the token.
r = await device.device.code({ client_id: 'sellertrends-cli', scope: 'openid' })
out('device-code', { error: err(r), hasCode: !!r.data?.device_code, interval: r.data?.interval })
const code = r.data
r = await device.device.token({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: code.device_code, client_id: 'sellertrends-cli' })
out('device-token-pending', { error: err(r) })
r = await client.device({ query: { user_code: code.user_code } })
out('device-verify', { error: err(r), status: r.data?.status, client: r.data?.client_id })
r = await client.device.approve({ userCode: code.user_code })
out('device-approve', { error: err(r), success: r.data?.success })
await new Promise((resolve) => setTimeout(resolve, code.interval * 1000 + 100)) // RFC 8628: wait the interval
r = await device.device.token({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: code.device_code, client_id: 'sellertrends-cli' })
out('device-token', { error: err(r), type: r.data?.token_type, hasToken: !!r.data?.access_token })
const bearer = createAuthClient({ baseURL: base, basePath: '/api/auth', fetchOptions: { auth: { type: 'Bearer', token: r.data?.access_token } } })
r = await bearer.getSession()
out('bearer-session', { email: r.data?.user?.email })

r = await client.admin.removeUser({ userId: id })
out('remove-user', { error: err(r), success: r.data?.success })
