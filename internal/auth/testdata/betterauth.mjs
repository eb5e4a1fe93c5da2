// A Better Auth 1.7 server from the npm package with sellertrends' core settings (email and
// password, verification on sign-up with sign-in after it, change email, delete user with a
// mailed confirmation, the bearer plugin), on PostgreSQL schema argv[4] of argv[3], listening
// on 127.0.0.1:argv[2]. Mails are kept, and GET /__mail?to=&contains= answers the newest link.
// The core's compare test sends it the same requests as the Go server.
import { createServer } from 'node:http'
import { betterAuth } from 'better-auth'
import { bearer } from 'better-auth/plugins'
import { getMigrations } from 'better-auth/db/migration'
import { toNodeHandler } from 'better-auth/node'
import pg from 'pg'

const port = Number(process.argv[2])
const pool = new pg.Pool({ connectionString: process.argv[3], options: `-c search_path=${process.argv[4]}` })
const mails = []
const keep = (to, url) => { mails.push({ to: to.toLowerCase(), url }) }
const auth = betterAuth({
  baseURL: `http://127.0.0.1:${port}`,
  secret: 'compare-secret-compare-secret-compare-0',
  database: pool,
  emailAndPassword: {
    enabled: true,
    sendResetPassword: async ({ user, url }) => keep(user.email, url),
    revokeSessionsOnPasswordReset: true, // AUTH_REVOKE_SESSIONS_ON_PASSWORD_RESET's default
  },
  emailVerification: {
    sendOnSignUp: true,
    autoSignInAfterVerification: true,
    sendVerificationEmail: async ({ user, url }) => keep(user.email, url),
  },
  user: {
    changeEmail: {
      enabled: true,
      updateEmailWithoutVerification: true,
      sendChangeEmailConfirmation: async ({ user, url }) => keep(user.email, url),
    },
    deleteUser: {
      enabled: true,
      sendDeleteAccountVerification: async ({ user, url }) => keep(user.email, url),
    },
  },
  session: { cookieCache: { enabled: true, maxAge: 60 } },
  rateLimit: { enabled: false },
  logger: { level: 'error' },
  plugins: [bearer()],
})
const { runMigrations } = await getMigrations(auth.options)
await runMigrations()
const handler = toNodeHandler(auth)
createServer((req, res) => {
  const u = new URL(req.url, 'http://x')
  if (u.pathname !== '/__mail') return handler(req, res)
  const to = (u.searchParams.get('to') || '').toLowerCase()
  const found = mails.filter((m) => m.to === to && m.url.includes(u.searchParams.get('contains') || '')).pop()
  res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ url: found?.url || '' }))
}).listen(port, '127.0.0.1', () => console.log('listening'))
