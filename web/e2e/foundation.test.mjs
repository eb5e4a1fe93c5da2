// The newcomer's path and the shell's promises, in headless Chromium against the built binary.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { startApp, startInbox, launchBrowser, linkIn, screenshotDir } from './support/harness.mjs'

let app, inbox, chrome

before(async () => {
  inbox = await startInbox()
  app = await startApp({ SMTP_URL: inbox.url })
  chrome = await launchBrowser()
})

after(async () => {
  await chrome?.close()
  await app?.stop()
  await inbox?.close()
})

// Every page these tests open reports Content-Security-Policy violations here: the browser's
// console message and the page's securitypolicyviolation event. The last test asserts none.
const cspViolations = []

async function newPage() {
  const context = await chrome.browser.newContext({ baseURL: app.baseURL })
  await context.exposeFunction('reportCSPViolation', (v) => cspViolations.push(v))
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      window.reportCSPViolation(`${e.violatedDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`),
    )
  })
  const page = await context.newPage()
  page.on('console', (m) => {
    if (m.text().includes('Content Security Policy')) cspViolations.push(`${page.url()}: ${m.text()}`)
  })
  return page
}

test('served HTML carries the metadata crawlers need', async () => {
  const res = await fetch(`${app.baseURL}/`)
  assert.equal(res.status, 200)
  assert.equal(res.headers.get('cache-control'), 'no-cache')
  const html = await res.text()
  assert.match(html, /<html lang="en" dir="ltr" class="light">/)
  assert.match(html, /<title>Data trends for Amazon sellers<\/title>/)
  assert.match(html, /<meta name="description" content="See what people are searching for/)
  assert.match(html, /<meta property="og:locale" content="en">/)
  assert.match(html, /<meta property="og:type" content="website">/)
  assert.match(html, /<meta name="twitter:card" content="summary_large_image">/)
  assert.match(html, /<link rel="icon" type="image\/svg\+xml" href="\/favicon.svg"/)
  assert.match(html, /rel="preload" href="\/assets\/inter-latin-wght-normal-[^"]+\.woff2" as="font"/)
  assert.match(html, /<link rel="stylesheet"[^>]+href="\/assets\/[^"]+\.css"/)
  const image = html.match(/<meta property="og:image" content="([^"]+)"/)[1]
  const png = await fetch(image)
  assert.equal(png.headers.get('content-type'), 'image/png')
  assert.ok((await png.arrayBuffer()).byteLength > 10000, 'headline image is a real picture')
  const asset = html.match(/src="(\/assets\/[^"]+\.js)"/)[1]
  assert.equal((await fetch(app.baseURL + asset)).headers.get('cache-control'), 'public, max-age=31536000, immutable')
})

test('a newcomer signs up, verifies, switches theme, signs out and resets the password', async () => {
  const page = await newPage()
  const email = 'newcomer@example.com'
  await page.goto('/')
  await page.getByRole('link', { name: /sign in or create an account/i }).click()
  await page.waitForURL('**/sign-in')
  await page.screenshot({ path: join(screenshotDir, 'sign-in-light.png') })
  await page.getByRole('tab', { name: 'Create account' }).click()
  await page.getByLabel('Name').fill('Nora Newcomer')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill('correct-horse-1')
  await page.getByRole('button', { name: 'Create account' }).click()
  await page.waitForURL('**/dashboard')
  await page.getByText('Please verify your email address').waitFor()

  const verification = await inbox.waitFor(email)
  assert.match(verification.subject, /Verify your email/)
  await page.goto(linkIn(verification, '/api/auth/verify-email'))
  await page.waitForURL('**/dashboard')
  await page.getByRole('heading', { name: 'Welcome, Nora Newcomer' }).waitFor()
  assert.equal(await page.getByText('Please verify your email address').count(), 0)

  await page.getByRole('button', { name: 'Switch to dark theme' }).click()
  await page.waitForFunction(() => document.documentElement.classList.contains('dark'))
  // No flash: the HTML the server sends on reload already has the dark class.
  const reload = await page.reload()
  assert.match(await reload.text(), /<html lang="en" dir="ltr" class="dark">/)
  await page.screenshot({ path: join(screenshotDir, 'dashboard-dark.png') })

  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.waitForURL('**/sign-in')
  await page.goto('/dashboard')
  await page.waitForURL(/\/sign-in\?redirect=/)

  await page.getByRole('link', { name: 'Forgot password?' }).click()
  // The link switches the view client-side: wait for the reset form, or the email could go
  // into the sign-in form's field just before it is replaced.
  await page.getByRole('button', { name: 'Send reset link' }).waitFor()
  await page.getByLabel('Email').fill(email)
  await page.getByRole('button', { name: 'Send reset link' }).click()
  await page.getByText('If this email exists in our system, check your email for the reset link').waitFor()
  const reset = await inbox.waitFor(email)
  await page.goto(linkIn(reset, '/api/auth/reset-password/'))
  await page.waitForURL(/\/sign-in\?token=/)
  await page.getByLabel('New password', { exact: true }).fill('new-horse-battery-2')
  await page.getByLabel('Confirm new password').fill('new-horse-battery-2')
  await page.getByRole('button', { name: 'Set new password' }).click()
  await page.getByText('Password changed').waitFor()

  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill('new-horse-battery-2')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForURL('**/dashboard')
  await page.context().close()
})

test('a failed sign-in shows the server message in a toast', async () => {
  const page = await newPage()
  await page.goto('/sign-in')
  await page.getByLabel('Email').fill('nobody@example.com')
  await page.getByLabel('Password').fill('whatever-123')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.getByText('Invalid email or password').waitFor()
  await page.context().close()
})

test('unknown paths show Not Found with status 404', async () => {
  const page = await newPage()
  const res = await page.goto('/no/such/page')
  assert.equal(res.status(), 404)
  await page.getByRole('heading', { name: 'Not Found' }).waitFor()
  const api = await fetch(`${app.baseURL}/api/no-such-thing`)
  assert.equal(api.status, 404)
  assert.equal((await api.json()).code, 'NOT_FOUND')
  await page.context().close()
})

test('a failing view offers Show Error / Hide Error', async () => {
  const page = await newPage()
  const res = await page.request.post('/api/auth/sign-up/email', {
    data: { name: 'Err', email: 'error-view@example.com', password: 'password-123' },
    headers: { origin: app.baseURL },
  })
  assert.equal(res.status(), 200)
  // The dashboard's code-split chunk fails to load, as after a botched deploy.
  await page.route(/\/assets\/dashboard-[^/]+\.js$/, (route) => route.abort())
  await page.goto('/dashboard')
  await page.getByText('Something went wrong!').waitFor()
  const message = page.locator('pre')
  assert.equal(await message.count(), 0)
  await page.getByRole('button', { name: 'Show Error' }).click()
  await message.waitFor()
  assert.match(await message.innerText(), /dynamically imported module|Failed to fetch|Importing a module/i)
  await page.getByRole('button', { name: 'Hide Error' }).click()
  assert.equal(await message.count(), 0)
  await page.context().close()
})

test('pages load under the Content-Security-Policy without a violation', async () => {
  const res = await fetch(`${app.baseURL}/`)
  const csp = res.headers.get('content-security-policy') ?? ''
  assert.match(csp, /script-src 'self';/)
  assert.match(csp, /frame-ancestors 'none'/)
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff')
  // The pages above (sign-up, dashboard, theme switch, reset, errors) ran under the policy; one
  // more visit covers the signed-out home and sign-in pages on their own.
  const page = await newPage()
  await page.goto('/')
  await page.getByRole('link', { name: /sign in or create an account/i }).click()
  await page.waitForURL('**/sign-in')
  await page.getByRole('tab', { name: 'Create account' }).click()
  assert.deepEqual(cspViolations, [])
})

