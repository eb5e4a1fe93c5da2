// A Better Auth 1.7 server from the npm package with the organization plugin (teams and dynamic
// access control on, roles extended with sellertrends' resources as internal/auth/organization
// grants them) beside the admin and bearer plugins our server also runs, on PostgreSQL schema
// argv[4] of argv[3], listening on 127.0.0.1:argv[2]. The compare test sends it the same requests.
import { createServer } from 'node:http'
import { betterAuth } from 'better-auth'
import { admin, bearer, organization } from 'better-auth/plugins'
import { adminAc as userAdminAc, userAc } from 'better-auth/plugins/admin/access'
import { createAccessControl } from 'better-auth/plugins/access'
import { defaultStatements, adminAc, ownerAc, memberAc } from 'better-auth/plugins/organization/access'
import { getMigrations } from 'better-auth/db/migration'
import { toNodeHandler } from 'better-auth/node'
import pg from 'pg'

const product = { dataset: ['read', 'import', 'delete'], watchlist: ['read', 'write'], billing: ['read', 'manage'] }
const ac = createAccessControl({ ...defaultStatements, ...product })
const roles = {
  owner: ac.newRole({ ...ownerAc.statements, ...product }),
  admin: ac.newRole({ ...adminAc.statements, dataset: product.dataset, watchlist: product.watchlist, billing: ['read'] }),
  member: ac.newRole({ ...memberAc.statements, dataset: ['read'], watchlist: ['read'] }),
}

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
    admin({ roles: { admin: userAdminAc, user: userAc } }),
    bearer(),
    organization({ ac, roles, teams: { enabled: true }, dynamicAccessControl: { enabled: true }, sendInvitationEmail: async () => {} }),
  ],
})
const { runMigrations } = await getMigrations(auth.options)
await runMigrations()
createServer(toNodeHandler(auth)).listen(port, '127.0.0.1', () => console.log('listening'))
