// Drives the official better-auth client against the Go server at process.argv[2]:
// sign up, sign in, read the session, sign out. Prints one JSON line per step; exits 1 on failure.
import { createAuthClient } from 'better-auth/client'

const base = process.argv[2]
const jar = new Map()
// A tiny cookie jar: Node's fetch keeps no cookies, a browser would.
const fetchWithCookies = async (input, init = {}) => {
  const headers = new Headers(init.headers)
  headers.set('origin', base)
  if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '))
  const res = await fetch(input, { ...init, headers })
  for (const sc of res.headers.getSetCookie()) {
    const [pair, ...attrs] = sc.split(';')
    const i = pair.indexOf('=')
    const name = pair.slice(0, i)
    const expired = attrs.some((a) => /max-age=(0|-)/i.test(a.trim()))
    if (expired) jar.delete(name)
    else jar.set(name, pair.slice(i + 1))
  }
  return res
}

const client = createAuthClient({ baseURL: base, basePath: '/api/auth', fetchOptions: { customFetchImpl: fetchWithCookies } })
const out = (step, value) => console.log(JSON.stringify({ step, ...value }))
const email = `compat-${Date.now()}@example.com`

let r = await client.signUp.email({ email, password: 'password123', name: 'Compat' })
out('sign-up', { error: r.error, email: r.data?.user?.email, token: !!r.data?.token })
r = await client.getSession()
out('session-after-sign-up', { error: r.error, email: r.data?.user?.email })
r = await client.signOut()
out('sign-out', { error: r.error, success: r.data?.success })
r = await client.getSession()
out('session-after-sign-out', { error: r.error, data: r.data })
r = await client.signIn.email({ email, password: 'wrong-password' })
out('sign-in-wrong', { status: r.error?.status, code: r.error?.code, message: r.error?.message })
r = await client.signIn.email({ email, password: 'password123' })
out('sign-in', { error: r.error, email: r.data?.user?.email, redirect: r.data?.redirect })
r = await client.getSession({ query: { disableCookieCache: true } })
out('session-after-sign-in', { error: r.error, email: r.data?.user?.email, hasToken: !!r.data?.session?.token })
r = await client.requestPasswordReset({ email, redirectTo: '/sign-in' })
out('request-password-reset', { error: r.error, message: r.data?.message })

// Account management through the official client.
r = await client.updateUser({ name: 'Compat Renamed' })
out('update-user', { error: r.error, status: r.data?.status })
r = await client.getSession({ query: { disableCookieCache: true } })
out('session-after-update', { name: r.data?.user?.name })
r = await client.changePassword({ currentPassword: 'password123', newPassword: 'password456', revokeOtherSessions: true })
out('change-password', { error: r.error, hasToken: !!r.data?.token })
r = await client.listSessions()
out('list-sessions', { error: r.error, count: r.data?.length })
r = await client.revokeOtherSessions()
out('revoke-other-sessions', { error: r.error, status: r.data?.status })
r = await client.listAccounts()
out('list-accounts', { error: r.error, provider: r.data?.[0]?.providerId, scopes: Array.isArray(r.data?.[0]?.scopes) })
r = await client.unlinkAccount({ providerId: 'credential' })
out('unlink-last-account', { code: r.error?.code })
r = await client.changeEmail({ newEmail: 'compat-new-' + email, callbackURL: '/dashboard' })
out('change-email', { error: r.error, status: r.data?.status })
r = await client.revokeSession({ token: 'not-mine' })
out('revoke-foreign-session', { error: r.error, status: r.data?.status }) // answered like Better Auth: nothing revoked, status true
r = await client.deleteUser({ password: 'password456' })
out('delete-user', { error: r.error, message: r.data?.message })
r = await client.getSession()
out('session-after-delete', { data: r.data })
