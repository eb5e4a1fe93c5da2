// A stand-in identity provider for browser tests, reached by the browser and by the server
// (SOCIAL_TEST_IDP_URL). It plays github (user and emails lists) and discord under /{id}/...:
// authorize redirects straight back with a code, token checks client credentials,
// redirect_uri and the PKCE S256 challenge, user answers the profile in the provider's shape.
import { createServer } from 'node:http'
import { createHash } from 'node:crypto'

export async function startIdp(profiles) {
  const codes = new Map()
  let n = 0
  const json = (res, status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://idp')
    const [, id, what] = url.pathname.split('/')
    if (what === 'authorize') {
      const q = url.searchParams
      const code = `code-${++n}`
      codes.set(code, { id, clientId: q.get('client_id'), redirectURI: q.get('redirect_uri'), challenge: q.get('code_challenge') })
      res.writeHead(302, { location: `${q.get('redirect_uri')}?code=${code}&state=${encodeURIComponent(q.get('state'))}` })
      return res.end()
    }
    if (what === 'token') {
      let body = ''
      req.on('data', (d) => (body += d))
      req.on('end', () => {
        const f = new URLSearchParams(body)
        const g = codes.get(f.get('code'))
        codes.delete(f.get('code'))
        const verifier = f.get('code_verifier') ?? ''
        const ok = g && g.id === id && f.get('client_id') === `${id}-client` && f.get('client_secret') === `${id}-secret` &&
          g.redirectURI === f.get('redirect_uri') &&
          (!g.challenge || createHash('sha256').update(verifier).digest('base64url') === g.challenge)
        if (!ok) return json(res, 400, { error: 'invalid_grant' })
        json(res, 200, { access_token: `at-${id}`, token_type: 'Bearer', expires_in: 3600, refresh_token: `rt-${id}`, scope: 'a b' })
      })
      return
    }
    if (req.headers.authorization !== `Bearer at-${id}`) return json(res, 401, { error: 'unauthorized' })
    if (what === 'user' && profiles[id]) return json(res, 200, profiles[id])
    if (what === 'emails' && profiles[`${id}:emails`]) return json(res, 200, profiles[`${id}:emails`])
    json(res, 404, { error: 'not_found' })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) }
}
