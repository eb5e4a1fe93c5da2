// A Better Auth server built from the npm package with sellertrends' settings (SQLite, 7-day
// sessions, cookie cache on, email and password), listening on 127.0.0.1:PORT.
import { createServer } from 'node:http'
import { betterAuth } from 'better-auth'
import { getMigrations } from 'better-auth/db/migration'
import { toNodeHandler } from 'better-auth/node'
import Database from 'better-sqlite3'

const port = Number(process.argv[2])
const auth = betterAuth({
  baseURL: `http://127.0.0.1:${port}`,
  secret: 'bench-secret-bench-secret-bench-secret-0',
  database: new Database(process.argv[3]),
  emailAndPassword: { enabled: true },
  session: { cookieCache: { enabled: true, maxAge: 60 } },
  rateLimit: { enabled: false },
  logger: { level: 'error' },
})
const { runMigrations } = await getMigrations(auth.options)
await runMigrations()
createServer(toNodeHandler(auth)).listen(port, '127.0.0.1', () => console.log('listening'))
