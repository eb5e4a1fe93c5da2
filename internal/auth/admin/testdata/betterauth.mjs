// A Better Auth 1.7 server from the npm package with the admin, device-authorization and bearer
// plugins and sellertrends' settings, on PostgreSQL schema argv[4] of argv[3], listening on
// 127.0.0.1:argv[2]. The compare test sends it the same requests as the Go server.
import { createServer } from 'node:http'
import { betterAuth } from 'better-auth'
import { admin, bearer, deviceAuthorization } from 'better-auth/plugins'
import { adminAc, userAc } from 'better-auth/plugins/admin/access'
import { getMigrations } from 'better-auth/db/migration'
import { toNodeHandler } from 'better-auth/node'
import pg from 'pg'

const port = Number(process.argv[2])
const pool = new pg.Pool({ connectionString: process.argv[3], options: `-c search_path=${process.argv[4]}` })
const auth = betterAuth({
  baseURL: `http://127.0.0.1:${port}`,
  secret: 'compare-secret-compare-secret-compare-0',
  database: pool,
  emailAndPassword: { enabled: true },
  session: { cookieCache: { enabled: true, maxAge: 60 } },
  rateLimit: { enabled: false },
  logger: { level: 'error' },
  plugins: [
    admin({ roles: { admin: adminAc, user: userAc } }),
    deviceAuthorization({ expiresIn: '30m', interval: process.env.DEVICE_INTERVAL || '5s' }),
    bearer(),
  ],
})
const { runMigrations } = await getMigrations(auth.options)
await runMigrations()
createServer(toNodeHandler(auth)).listen(port, '127.0.0.1', () => console.log('listening'))
