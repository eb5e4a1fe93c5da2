// The admin area and the device flow, in headless Chromium against the built binary: an
// operator (AUTH_ADMIN_EMAILS, verified) searches, sorts and pages the users table, bans and
// unbans, impersonates and stops, deletes; a plain user never sees the area; the command line's
// `login` is approved on the /device page.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startApp, startInbox, launchBrowser, linkIn, screenshotDir } from './support/harness.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
let app, inbox, chrome

before(async () => {
  inbox = await startInbox()
  app = await startApp({ SMTP_URL: inbox.url, AUTH_ADMIN_EMAILS: 'boss@example.com', AUTH_DEVICE_INTERVAL: '1s' })
  chrome = await launchBrowser()
  // The operator verifies their address (admin rights need it); others just sign up.
  await signUp('boss@example.com', 'Bea Boss')
  const mail = await inbox.waitFor('boss@example.com')
  assert.equal((await fetch(linkIn(mail, '/api/auth/verify-email'), { redirect: 'manual' })).status, 302)
  for (const [email, name] of [['carol@example.com', 'Carol Carter'], ['dave@example.com', 'Dave Dunn'], ['erin@example.com', 'Erin Eve']]) {
    await signUp(email, name)
  }
})

after(async () => {
  await chrome?.close()
  await app?.stop()
  await inbox?.close()
})

async function signUp(email, name) {
  const res = await fetch(`${app.baseURL}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app.baseURL },
    body: JSON.stringify({ email, name, password: 'password-123' }),
  })
  assert.equal(res.status, 200, await res.text())
}

async function signedInPage(email, viewport) {
  const context = await chrome.browser.newContext({ baseURL: app.baseURL, viewport })
  const page = await context.newPage()
  page.on('dialog', (d) => d.accept())
  await page.goto('/sign-in')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill('password-123')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForURL('**/dashboard')
  return page
}

test('the admin users table: search, sort, paging totals, ban, impersonate, delete', async () => {
  const page = await signedInPage('boss@example.com')
  await page.getByRole('link', { name: 'Admin', exact: true }).click()
  await page.waitForURL('**/admin')
  const table = page.getByRole('table')
  await page.getByText('1–4 of 4 users').waitFor()
  // The operator's figures: four accounts, the operator's session among the active ones.
  const figures = page.getByRole('region', { name: 'Figures' })
  await figures.getByText('Active sessions').waitFor()
  assert.equal(await figures.locator('dt:text-is("Users") + dd').textContent(), '4')
  assert.ok(Number(await figures.locator('dt:text-is("Active sessions") + dd').textContent()) >= 1)
  assert.match(await figures.textContent(), /DuckDB: \d/)
  await page.screenshot({ path: join(screenshotDir, 'admin-users-light.png') })

  await page.getByRole('button', { name: /^Email/ }).click() // sort by email, ascending
  await page.waitForFunction(() => document.querySelector('caption')?.textContent?.includes('email ascending'))
  const emails = await table.locator('tbody tr td:nth-child(2)').allTextContents()
  assert.deepEqual(emails, ['boss@example.com', 'carol@example.com', 'dave@example.com', 'erin@example.com'])

  await page.getByLabel('Search').fill('CAROL')
  await page.getByText('1–1 of 1 users').waitFor()
  await page.getByRole('link', { name: 'Carol Carter' }).click()
  await page.getByRole('heading', { name: 'Carol Carter' }).waitFor()

  await page.getByLabel('Reason').fill('spam')
  await page.getByLabel('For').selectOption({ label: '1 day' })
  await page.getByRole('button', { name: 'Ban user' }).click()
  await page.getByText(/Banned: spam · until/).waitFor()
  const res = await fetch(`${app.baseURL}/api/auth/sign-in/email`, {
    method: 'POST', headers: { 'content-type': 'application/json', origin: app.baseURL },
    body: JSON.stringify({ email: 'carol@example.com', password: 'password-123' }),
  })
  assert.equal((await res.json()).code, 'BANNED_USER')
  await page.getByRole('button', { name: 'Unban' }).click()
  await page.getByRole('button', { name: 'Ban user' }).waitFor()

  await page.getByRole('button', { name: 'Impersonate' }).click()
  await page.waitForURL('**/dashboard')
  await page.getByText('You are signed in as carol@example.com (impersonating).').waitFor()
  // The navigation follows the impersonated session once it is refetched: the Admin link goes
  // (waitFor fails the test if it stays).
  await page.getByRole('link', { name: 'Admin', exact: true }).waitFor({ state: 'detached', timeout: 5000 })
  assert.equal(await page.getByRole('link', { name: 'Admin', exact: true }).count(), 0)
  await page.screenshot({ path: join(screenshotDir, 'admin-impersonating-light.png') })
  await page.getByRole('button', { name: 'Stop impersonating' }).click()
  await page.waitForURL('**/admin')
  await page.getByLabel('Signed in as').filter({ hasText: 'boss@example.com' }).waitFor()

  await page.getByRole('link', { name: 'Dave Dunn' }).click()
  await page.getByRole('button', { name: 'Delete user' }).click() // the confirmation is accepted
  await page.waitForURL('**/admin')
  await page.getByText('1–3 of 3 users').waitFor()
  await page.context().close()
})

test('the admin area at 390 px, in the dark theme', async () => {
  const page = await signedInPage('boss@example.com', { width: 390, height: 844 })
  await page.goto('/admin')
  // At 390 px the theme switch sits in the menu.
  await page.getByRole('button', { name: /Menu/ }).click()
  await page.getByRole('button', { name: 'Switch to dark theme' }).click()
  await page.getByRole('button', { name: /Close/ }).click()
  await page.getByRole('table').waitFor()
  await page.getByRole('region', { name: 'Figures' }).getByText('Workspaces').waitFor()
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  assert.ok(overflow <= 0, `the admin page overflows by ${overflow}px at 390 px`)
  await page.screenshot({ path: join(screenshotDir, 'admin-users-390-dark.png'), fullPage: true })
  await page.getByRole('button', { name: /Menu/ }).click()
  await page.getByRole('button', { name: 'Switch to light theme' }).click()
  await page.context().close()
})

test('a plain user has no admin area, and the server refuses them', async () => {
  const page = await signedInPage('erin@example.com')
  assert.equal(await page.getByRole('link', { name: 'Admin', exact: true }).count(), 0)
  await page.goto('/admin')
  await page.waitForURL('**/dashboard')
  const res = await page.request.get('/api/auth/admin/list-users')
  assert.equal(res.status(), 403)
  assert.equal((await page.request.get('/api/admin/figures')).status(), 403)
  await page.context().close()
})

test('sellertrends login is approved on the /device page', async () => {
  const config = mkdtempSync(join(tmpdir(), 'sellertrends-e2e-config-'))
  const cli = spawn(join(root, 'bin', 'sellertrends'), ['login', '--server', app.baseURL], {
    env: { ...process.env, XDG_CONFIG_HOME: config, HOME: config },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  const exited = new Promise((resolve) => cli.on('exit', resolve))
  const prompt = await new Promise((resolve, reject) => {
    cli.stdout.on('data', (d) => {
      out += d
      const m = out.match(/open (\S+) and enter the code (\S+)/)
      if (m) resolve(m)
    })
    cli.on('exit', () => reject(new Error(`login ended: ${out}`)))
  })
  assert.equal(prompt[1], `${app.baseURL}/device`)

  // The person signs in first, then types the code (any case, with its dash).
  const page = await signedInPage('erin@example.com')
  await page.goto('/device')
  await page.getByRole('textbox', { name: 'Code' }).fill(prompt[2].toLowerCase())
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.getByText('The sellertrends command line').waitFor()
  await page.screenshot({ path: join(screenshotDir, 'device-approve-light.png') })
  await page.getByRole('button', { name: 'Approve' }).click()
  await page.getByText('Done. You can close this page and go back to your device.').waitFor()

  assert.equal(await exited, 0, out)
  assert.match(out, /Signed in to .* as erin@example\.com/)
  assert.equal(statSync(join(config, 'sellertrends', 'credentials.json')).mode & 0o777, 0o600)
  await page.context().close()
})

test('a device link opened signed out leads through sign-in, and a denial reaches the device', async () => {
  const code = await (await fetch(`${app.baseURL}/api/auth/device/code`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: 'sellertrends-cli' }),
  })).json()
  const context = await chrome.browser.newContext({ baseURL: app.baseURL })
  const page = await context.newPage()
  await page.goto(code.verification_uri_complete)
  await page.waitForURL(/\/sign-in\?redirect=/)
  await page.getByLabel('Email').fill('carol@example.com')
  await page.getByLabel('Password').fill('password-123')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForURL(/\/device\?user_code=/)
  await page.getByRole('button', { name: 'Deny' }).click()
  await page.getByText('The device will not be signed in to your account.').waitFor()
  const poll = await fetch(`${app.baseURL}/api/auth/device/token`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: code.device_code, client_id: 'sellertrends-cli' }),
  })
  assert.equal((await poll.json()).error, 'access_denied')
  await context.close()
})
