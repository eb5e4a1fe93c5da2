// The embedded Polar checkout's whole life in headless Chromium, without the internet: the
// server talks to a Polar API stand-in run here; Chromium maps sandbox.polar.sh to a local HTTPS
// server (self-signed) whose checkout page posts Polar's messages to the parent page from that
// origin. Checks the full-screen loader, the close locked after 'confirmed', the close after
// 'success' (closable again), and the plan after Polar's signed webhook. Waits on events, never on time.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createServer as createHTTP } from 'node:http'
import { createServer as createHTTPS } from 'node:https'
import { createHmac } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startApp, launchBrowser, screenshotDir } from './support/harness.mjs'

const PRO = '11111111-1111-1111-1111-111111111111'
const SECRET = 'polar_whs_e2e-secret'
let app, chrome, context, polarAPI, checkoutSite, checkoutPort
const checkouts = []

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)))
}

// The Polar API calls the server makes: customers at sign-up, and the checkout.
function polarStandIn() {
  return createHTTP((req, res) => {
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      res.setHeader('content-type', 'application/json')
      if (req.headers.authorization !== 'Bearer polar_oat_e2e') {
        res.writeHead(401).end('{"detail":"Unauthorized"}')
        return
      }
      if (req.method === 'POST' && req.url === '/v1/checkouts/') {
        checkouts.push(JSON.parse(body))
        res.writeHead(201).end(JSON.stringify({ id: 'co_e2e', url: 'https://sandbox.polar.sh/checkout/polar_c_e2e', status: 'open' }))
      } else if (req.method === 'GET' && req.url.startsWith('/v1/customers/')) {
        res.end('{"items":[]}')
      } else if (req.method === 'POST' && req.url === '/v1/customers/') {
        res.writeHead(201).end(body)
      } else {
        res.writeHead(404).end('{"detail":"Not found"}')
      }
    })
  })
}

// The checkout page as Polar's embed loads it: buttons that post Polar's messages to the parent.
const checkoutPage = `<!doctype html><html><body style="background:#fff">
<p>Polar checkout (stand-in)</p>
${['loaded', 'confirmed', 'close', 'success'].map((e) => `<button id="${e}">${e}</button>`).join('\n')}
<script>
for (const e of ['loaded', 'confirmed', 'close', 'success']) {
  document.getElementById(e).onclick = () => window.parent.postMessage({ type: 'POLAR_CHECKOUT', event: e, successURL: '/dashboard/billing?checkout=done', redirect: false }, '*')
}
</script></body></html>`

function selfSigned() {
  const dir = mkdtempSync(join(tmpdir(), 'polar-cert-'))
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=sandbox.polar.sh',
    '-addext', 'subjectAltName=DNS:sandbox.polar.sh', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' })
  return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }
}

before(async () => {
  polarAPI = polarStandIn()
  const apiPort = await listen(polarAPI)
  checkoutSite = createHTTPS(selfSigned(), (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(checkoutPage))
  checkoutPort = await listen(checkoutSite)
  app = await startApp({
    POLAR_ACCESS_TOKEN: 'polar_oat_e2e', POLAR_API_URL: `http://127.0.0.1:${apiPort}`, POLAR_WEBHOOK_SECRET: SECRET,
    POLAR_PRODUCTS: `pro:${PRO},team:22222222-2222-2222-2222-222222222222`,
  })
  chrome = await launchBrowser([`--host-resolver-rules=MAP sandbox.polar.sh:443 127.0.0.1:${checkoutPort}`, '--ignore-certificate-errors'])
  context = await chrome.browser.newContext({ baseURL: app.baseURL })
  const res = await context.request.post('/api/auth/sign-up/email', {
    data: { name: 'Bea Buyer', email: 'bea@example.com', password: 'password-123' },
    headers: { origin: app.baseURL },
  })
  assert.equal(res.status(), 200)
})

after(async () => {
  await chrome?.close()
  await app?.stop()
  polarAPI?.close()
  checkoutSite?.close()
})

// sendWebhook signs a delivery as Polar does (Standard Webhooks, the secret's bytes as key).
async function sendWebhook(type, data) {
  const id = `msg_${type}_${Date.now()}`
  const ts = Math.floor(Date.now() / 1000)
  const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data })
  const sig = createHmac('sha256', Buffer.from(SECRET)).update(`${id}.${ts}.${body}`).digest('base64')
  const res = await fetch(`${app.baseURL}/api/auth/polar/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': `v1,${sig}` },
    body,
  })
  assert.equal(res.status, 200, await res.text())
}

test('embedded checkout: loader, locked close, success then close, and the plan follows the webhook', async () => {
  const page = await context.newPage()
  const violations = []
  page.on('console', (m) => m.type() === 'error' && /Content Security Policy/i.test(m.text()) && violations.push(m.text()))
  await page.goto('/dashboard/billing')
  await page.getByTestId('current-plan').filter({ hasText: 'Free' }).waitFor()
  await page.getByRole('button', { name: 'Upgrade to Pro' }).click()

  // The server asked Polar for an embedded checkout for this workspace, from this origin.
  const frameEl = page.locator('iframe[src^="https://sandbox.polar.sh/checkout/polar_c_e2e"]')
  await frameEl.waitFor({ state: 'attached' })
  const sent = checkouts.at(-1)
  assert.deepEqual(sent.products, [PRO])
  assert.equal(sent.embed_origin, app.baseURL)
  assert.match(sent.metadata.referenceId, /^personal-/)

  // A full-screen loader sits on top until the frame says 'loaded'.
  const loader = page.locator('div[style*="2147483647"]:not(iframe)').first()
  await loader.waitFor()
  const frame = page.frameLocator('iframe[src^="https://sandbox.polar.sh/checkout/"]')
  await frame.getByRole('button', { name: 'loaded' }).click()
  await loader.waitFor({ state: 'detached' })

  // After 'confirmed', 'close' cannot close it. A listener added after the embed's own sees each
  // message once the embed has handled it.
  await page.evaluate(() => {
    window.__polar = []
    window.addEventListener('message', (e) => e.data?.type === 'POLAR_CHECKOUT' && window.__polar.push(e.data.event))
  })
  await frame.getByRole('button', { name: 'confirmed' }).click()
  await frame.getByRole('button', { name: 'close' }).click()
  await page.waitForFunction(() => window.__polar.includes('close'))
  assert.equal(await frameEl.count(), 1, 'closed while the payment was being confirmed')
  await page.screenshot({ path: join(screenshotDir, 'billing-checkout.png') })

  // After 'success' the page is told and the frame can be closed again.
  await frame.getByRole('button', { name: 'success' }).click()
  await page.getByText('Payment received').waitFor()
  await frame.getByRole('button', { name: 'close' }).click()
  await frameEl.waitFor({ state: 'detached' })

  // Polar's webhook makes the workspace Pro.
  const me = await (await context.request.get('/api/auth/get-session')).json()
  await sendWebhook('subscription.active', {
    id: 'sub_e2e', status: 'active', product_id: PRO, cancel_at_period_end: false, current_period_end: '2027-01-01T00:00:00Z',
    created_at: new Date().toISOString(), modified_at: new Date().toISOString(), metadata: { referenceId: `personal-${me.user.id}` },
    customer: { id: 'cus_1', external_id: me.user.id },
  })
  await page.reload()
  await page.getByTestId('current-plan').filter({ hasText: 'Pro' }).waitFor()
  assert.deepEqual(violations, [])
})

test('a checkout failure shows the server message', async () => {
  const page = await context.newPage()
  await page.route('**/api/auth/checkout', (route) =>
    route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify({ code: 'CHECKOUT_CREATION_FAILED', message: 'Checkout creation failed: Product is archived.' }) }),
  )
  await page.goto('/dashboard/billing')
  await page.getByTestId('current-plan').waitFor()
  await page.getByRole('button', { name: 'Upgrade to Team' }).click()
  await page.getByText('Checkout creation failed: Product is archived.').waitFor()
})

// A Free workspace that asks for more history than its plan shows reads the refusal, which
// names the plan, with a link to the plans; the overview shows 13 of its 14 weeks and says so.
test('a plan limit in a screen offers the plans', async () => {
  const free = await chrome.browser.newContext({ baseURL: app.baseURL })
  const res = await free.request.post('/api/auth/sign-up/email', {
    data: { name: 'Finn Free', email: 'finn@example.com', password: 'password-123' },
    headers: { origin: app.baseURL },
  })
  assert.equal(res.status(), 200)
  const ws = (await (await free.request.get('/api/workspaces')).json())[0].id
  // Fourteen weeks: the fixture's week with its dates moved back one week at a time.
  const template = readFileSync(join(import.meta.dirname, 'fixtures', 'US_Top_Search_Terms_Simple_Week_2026_04_11.csv'), 'utf8')
  const day = (d) => d.toISOString().slice(0, 10)
  const files = {}
  for (let i = 0; i < 14; i++) {
    const end = new Date(Date.UTC(2026, 3, 11 - 7 * i))
    const start = new Date(end.getTime() - 6 * 86400000)
    const body = template.replaceAll('2026-04-05 - 2026-04-11', `${day(start)} - ${day(end)}`)
      .replaceAll('"4/11/2026"', `"${end.getUTCMonth() + 1}/${end.getUTCDate()}/${end.getUTCFullYear()}"`)
    files[i] = { name: `US_Top_Search_Terms_Simple_Week_${day(end).replaceAll('-', '_')}.csv`, mimeType: 'text/csv', buffer: Buffer.from(body) }
  }
  for (const file of Object.values(files)) {
    const up = await free.request.post(`/api/trends/${ws}/imports`, { headers: { origin: app.baseURL }, multipart: { files: file } })
    assert.equal(up.status(), 202, await up.text())
    const job = (await up.json()).jobs[0]
    assert.equal((await (await free.request.get(`/api/trends/${ws}/imports/${job.id}?wait=true`)).json()).state, 'done')
  }
  const ds = (await (await free.request.get(`/api/trends/${ws}/datasets`)).json()).datasets[0].id

  const page = await free.newPage()
  await page.goto(`/dashboard?ws=${ws}&ds=${ds}`)
  await page.getByText('The 1 week before these are not shown on your plan.').waitFor()
  assert.equal(await page.getByLabel('What is loaded').getByText('13', { exact: true }).count(), 1) // periods loaded, as the plan shows them
  await page.goto(`/dashboard/explore?ws=${ws}&ds=${ds}&window=13`)
  await page.getByText('Older periods are not included in the Free plan. Upgrade to Pro to get them.').waitFor()
  assert.equal(await page.getByRole('button', { name: 'Retry' }).count(), 0) // asking again changes nothing
  await page.screenshot({ path: join(screenshotDir, 'plan-limit.png') })
  await page.getByRole('link', { name: 'See plans' }).click()
  await page.waitForURL('**/dashboard/billing')
  await page.getByTestId('current-plan').filter({ hasText: 'Free' }).waitFor()
  await free.close()
})
