// A Better Auth 1.7 server from the npm package with sellertrends' settings and the github,
// google and discord social providers ("<id>-client" / "<id>-secret"), on PostgreSQL schema
// argv[4] of argv[3], listening on 127.0.0.1:argv[2]. With IDP_URL set, fetch sends those
// providers' token and user-info calls to the stand-in IdP the Go compare test runs, at the
// same paths our server's providers use there (/{id}/token, /{id}/user, /{id}/emails), so both
// servers can complete a sign-in. The compare test sends it the same requests as the Go server.
import { createServer } from 'node:http'
import { betterAuth } from 'better-auth'
import { bearer } from 'better-auth/plugins'
import { getMigrations } from 'better-auth/db/migration'
import { toNodeHandler } from 'better-auth/node'
import pg from 'pg'

const idp = process.env.IDP_URL
if (idp) {
  const routes = {
    'https://github.com/login/oauth/access_token': '/github/token',
    'https://api.github.com/user': '/github/user',
    'https://api.github.com/user/emails': '/github/emails',
    'https://oauth2.googleapis.com/token': '/google/token',
    'https://discord.com/api/oauth2/token': '/discord/token',
    'https://discord.com/api/users/@me': '/discord/user',
  }
  const real = globalThis.fetch
  globalThis.fetch = (input, init) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const to = routes[decodeURIComponent(href.split('?')[0])] // better-fetch sends @me as %40me
    if (!to) return real(input, init)
    const url = idp + to
    return input instanceof Request ? real(new Request(url, input), init) : real(url, init)
  }
}

const provider = (id) => ({ clientId: `${id}-client`, clientSecret: `${id}-secret` })
const port = Number(process.argv[2])
const pool = new pg.Pool({ connectionString: process.argv[3], options: `-c search_path=${process.argv[4]}` })
const auth = betterAuth({
  baseURL: `http://127.0.0.1:${port}`,
  secret: 'compare-secret-compare-secret-compare-0',
  database: pool,
  emailAndPassword: { enabled: true },
  socialProviders: { github: provider('github'), google: provider('google'), discord: provider('discord') },
  session: { cookieCache: { enabled: true, maxAge: 60 } },
  rateLimit: { enabled: false },
  logger: { level: 'error' },
  plugins: [bearer()],
})
const { runMigrations } = await getMigrations(auth.options)
await runMigrations()
createServer(toNodeHandler(auth)).listen(port, '127.0.0.1', () => console.log('listening'))
