// Issue 25's screens in headless Chromium against the built binary, its providers pointed at a
// stand-in identity provider (SOCIAL_TEST_IDP_URL, test-only): sign in with GitHub from
// /sign-in and land on /dashboard; link Discord from the account screen and unlink it; the
// last sign-in method cannot be unlinked; callback errors are toasts in words; 390 px wide.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { startApp, launchBrowser, screenshotDir } from './support/harness.mjs'
import { startIdp } from './support/idp.mjs'

let app, idp, chrome
let profiles

before(async () => {
  idp = await startIdp(profiles = {
    github: { id: 5830215, login: 'octocat', name: 'Octo Cat', email: null, avatar_url: 'https://avatars.githubusercontent.com/u/5830215' },
    'github:emails': [{ email: 'octo@example.com', primary: true, verified: true }],
    discord: { id: '80351110224678912', username: 'octo', global_name: 'Octo', discriminator: '0', avatar: null, email: 'octo@example.com', verified: true },
  })
  app = await startApp({
    SOCIAL_TEST_IDP_URL: idp.url,
    GITHUB_CLIENT_ID: 'github-client', GITHUB_CLIENT_SECRET: 'github-secret',
    DISCORD_CLIENT_ID: 'discord-client', DISCORD_CLIENT_SECRET: 'discord-secret',
  })
  chrome = await launchBrowser()
})

after(async () => {
  await chrome?.close()
  await app?.stop()
  await idp?.close()
})

async function noSidewaysScroll(page, what) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }))
  assert.ok(scroll <= width, `${what}: the page is ${scroll}px wide in a ${width}px viewport`)
}

test('sign in with a provider from /sign-in, link a second one from the account screen and unlink it', async () => {
  const context = await chrome.browser.newContext({ baseURL: app.baseURL, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  const page = await context.newPage()
  await page.goto('/sign-in')
  const providers = page.getByRole('list', { name: 'Sign in with a provider' })
  await providers.getByRole('button', { name: 'GitHub' }).waitFor()
  assert.deepEqual(await providers.getByRole('button').allTextContents(), ['Discord', 'GitHub'], 'one button per configured provider')
  await noSidewaysScroll(page, '/sign-in')
  await page.screenshot({ path: join(screenshotDir, 'social-sign-in-390.png'), fullPage: true })
  await Promise.all([page.waitForURL((u) => u.pathname === '/dashboard'), providers.getByRole('button', { name: 'GitHub' }).click()])
  const session = await (await context.request.get('/api/auth/get-session')).json()
  assert.ok(session, 'signed in')
  assert.equal(session.user.email, 'octo@example.com')
  assert.equal(session.user.name, 'Octo Cat')

  await page.goto('/dashboard/account')
  const methods = page.getByRole('list', { name: 'Linked sign-in methods' })
  await methods.getByText('GitHub').waitFor()
  assert.ok(await page.getByRole('button', { name: 'Unlink GitHub' }).isDisabled(), 'the only sign-in method cannot be unlinked')
  await noSidewaysScroll(page, '/dashboard/account')
  // A Discord account with another email is refused and comes back as a toast in words.
  profiles.discord.email = 'someone-else@example.com'
  await Promise.all([
    page.waitForURL((u) => u.pathname === '/dashboard/account' && u.searchParams.get('error') === "email_doesn't_match"),
    page.getByRole('button', { name: 'Link Discord' }).click(),
  ])
  await page.getByText('That account uses a different email address from yours, so it was not linked.').waitFor()
  profiles.discord.email = 'octo@example.com'
  await Promise.all([
    page.waitForURL((u) => u.pathname === '/dashboard/account' && !u.search.includes('error')),
    page.getByRole('button', { name: 'Link Discord' }).click(),
  ])
  await methods.getByText('Discord').waitFor()
  const accounts = await (await context.request.get('/api/auth/list-accounts')).json()
  assert.deepEqual(accounts.map((a) => a.providerId).sort(), ['discord', 'github'])
  assert.ok(await page.getByRole('button', { name: 'Unlink GitHub' }).isEnabled(), 'with two methods either can go')
  await methods.scrollIntoViewIfNeeded()
  await page.screenshot({ path: join(screenshotDir, 'social-account-390.png') })

  page.once('dialog', (d) => d.accept())
  await page.getByRole('button', { name: 'Unlink Discord' }).click()
  await page.getByText('Discord unlinked').waitFor()
  await methods.getByText('Discord').waitFor({ state: 'detached' })
  await page.getByRole('button', { name: 'Link Discord' }).waitFor()
  assert.ok(await page.getByRole('button', { name: 'Unlink GitHub' }).isDisabled(), 'back to one method: protected again')
  const after = await (await context.request.get('/api/auth/list-accounts')).json()
  assert.deepEqual(after.map((a) => a.providerId), ['github'])
  await context.close()
})

test('a failed callback lands on /sign-in with the error in words', async () => {
  const context = await chrome.browser.newContext({ baseURL: app.baseURL })
  const page = await context.newPage()
  // The person refuses at the provider: the provider's own error comes back through the callback.
  await page.route(`${idp.url}/github/authorize**`, (route) => {
    const q = new URL(route.request().url()).searchParams
    route.fulfill({ status: 302, headers: { location: `${q.get('redirect_uri')}?error=access_denied&error_description=The+user+said+no&state=${q.get('state')}` } })
  })
  await page.goto('/sign-in')
  await Promise.all([
    page.waitForURL((u) => u.pathname === '/sign-in' && u.searchParams.get('error') === 'access_denied'),
    page.getByRole('button', { name: 'GitHub' }).click(),
  ])
  await page.getByText('The sign-in was cancelled at the provider.').waitFor()
  // Every other code is worded too (the words live in src/config/social.ts).
  await page.goto('/sign-in?error=account_not_linked')
  await page.getByText('An account with this email already exists. Sign in with your password, then link this provider from your account settings.').waitFor()
  await page.goto('/sign-in?error=server_error&error_description=Upstream%20down')
  await page.getByText('The provider refused the sign-in: Upstream down').waitFor()
  await context.close()
})
