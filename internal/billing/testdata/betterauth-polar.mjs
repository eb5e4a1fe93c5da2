// A Better Auth 1.7 server from the npm package running Polar's plugin (@polar-sh/better-auth
// with @polar-sh/sdk) configured as sellertrends is: customer at sign-up, checkout by slug for
// signed-in users only, the customer portal returning to the billing page. It listens on 127.0.0.1:argv[2], keeps its tables
// in PostgreSQL schema argv[4] of argv[3], and talks to the Polar stand-in at argv[5]. The
// compare test sends it the same requests as the Go server and compares what reaches Polar.
import { createServer } from 'node:http'
import { betterAuth } from 'better-auth'
import { getMigrations } from 'better-auth/db/migration'
import { toNodeHandler } from 'better-auth/node'
import { admin } from 'better-auth/plugins'
import { polar, checkout, portal } from '@polar-sh/better-auth'
import { Polar } from '@polar-sh/sdk'
import pg from 'pg'

const [port, database, schema, polarURL] = [Number(process.argv[2]), process.argv[3], process.argv[4], process.argv[5]]
const client = new Polar({ accessToken: process.env.POLAR_ACCESS_TOKEN, serverURL: polarURL, retryConfig: { strategy: 'none' } })
const auth = betterAuth({
  baseURL: `http://127.0.0.1:${port}`,
  secret: 'compare-secret-compare-secret-compare-0',
  database: new pg.Pool({ connectionString: database, options: `-c search_path=${schema}` }),
  emailAndPassword: { enabled: true },
  user: { changeEmail: { enabled: true, updateEmailWithoutVerification: true }, deleteUser: { enabled: true } },
  rateLimit: { enabled: false },
  logger: { level: 'error' },
  plugins: [
    admin(), // ours runs it too: its user fields are in every answer
    polar({
      client,
      createCustomerOnSignUp: true,
      use: [
        checkout({
          products: JSON.parse(process.env.POLAR_PRODUCTS_JSON),
          successUrl: process.env.POLAR_SUCCESS_URL,
          authenticatedUsersOnly: true,
        }),
        portal({ returnUrl: `http://127.0.0.1:${port}/dashboard/billing` }),
      ],
    }),
  ],
})
const { runMigrations } = await getMigrations(auth.options)
await runMigrations()
createServer(toNodeHandler(auth)).listen(port, '127.0.0.1', () => console.log('listening'))
