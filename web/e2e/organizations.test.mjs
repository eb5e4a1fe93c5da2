// An organization as a shared workspace, in headless Chromium: the owner creates it and invites a
// second seller by mail; the invitee opens the link, creates an account, accepts; the owner
// (an admin of it) imports a report; the member sees it but cannot delete it. The member's
// screens are checked at 390 px wide.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startApp, startInbox, launchBrowser, linkIn, screenshotDir } from './support/harness.mjs'

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures')
let app, inbox, chrome, owner, member

before(async () => {
  inbox = await startInbox()
  app = await startApp({ SMTP_URL: inbox.url })
  chrome = await launchBrowser()
  owner = await (await chrome.browser.newContext({ baseURL: app.baseURL })).newPage()
  member = await (await chrome.browser.newContext({ baseURL: app.baseURL, viewport: { width: 390, height: 844 } })).newPage()
  const res = await owner.request.post('/api/auth/sign-up/email', {
    data: { name: 'Olivia Owner', email: 'olivia@example.com', password: 'password-123' },
    headers: { origin: app.baseURL },
  })
  assert.equal(res.status(), 200)
})

after(async () => {
  await chrome?.close()
  await app?.stop()
  await inbox?.close()
})

// noSideScroll asserts the page fits its viewport (390 px unless said).
async function noSideScroll(page, what, viewport = 390) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  assert.ok(width <= viewport, `${what} is ${width} px wide at ${viewport} px`)
}

let org

test('the owner creates an organization and invites a second seller by mail', async () => {
  await owner.goto('/dashboard/workspace')
  await owner.getByLabel('Organization name').fill('Acme Sellers')
  assert.equal(await owner.getByLabel('Slug').inputValue(), 'acme-sellers')
  await owner.getByRole('button', { name: 'Create organization' }).click()
  await owner.getByRole('heading', { name: 'Acme Sellers: settings' }).waitFor()
  org = new URL(owner.url()).searchParams.get('ws')
  assert.ok(org, 'the settings page names the organization in the URL')
  await owner.getByLabel('Email to invite').fill('max@example.com')
  await owner.getByRole('button', { name: 'Invite', exact: true }).click()
  await owner.getByText(/max@example\.com · member · expires/).waitFor()
  await owner.screenshot({ path: join(screenshotDir, 'workspace-settings-light.png'), fullPage: true })
  // The owner's page, with every form, fits a phone too.
  await owner.setViewportSize({ width: 390, height: 844 })
  await noSideScroll(owner, "the owner's workspace settings")
  // Just past the menu breakpoint the navigation, Workspace link included, still fits.
  await owner.setViewportSize({ width: 768, height: 800 })
  await noSideScroll(owner, "the owner's workspace settings", 768)
  await owner.setViewportSize({ width: 1280, height: 720 })
})

test('the invitee opens the link, creates an account and accepts', async () => {
  const link = linkIn(await inbox.waitFor('max@example.com'), '/accept-invitation/')
  await member.goto(link)
  await member.waitForURL(/\/sign-in\?/) // signed out: sign in or create an account first
  await member.getByRole('tab', { name: 'Create account' }).or(member.getByRole('link', { name: 'Create account' })).first().click()
  await member.getByLabel('Name').fill('Max Member')
  await member.getByLabel('Email').fill('max@example.com')
  await member.getByLabel('Password').fill('password-456')
  await member.getByRole('button', { name: 'Create account' }).click()
  await member.waitForURL(/\/accept-invitation\//)
  await member.getByText(/olivia@example\.com invites you to join Acme Sellers as member/).waitFor()
  await noSideScroll(member, 'the invitation page')
  await member.getByRole('button', { name: 'Accept and open' }).click()
  await member.waitForURL((u) => u.pathname === '/dashboard' && u.searchParams.get('ws') === org)
  const ws = await (await member.request.get('/api/workspaces')).json()
  assert.deepEqual(ws.map((w) => w.kind), ['personal', 'organization', 'demo'])
  assert.deepEqual(ws[1].permissions.dataset, ['read'])
})

test('the owner imports a report into the organization; the member sees it and cannot delete it', async () => {
  await owner.goto(`/dashboard/imports?ws=${org}`)
  await owner.getByLabel('Report files').setInputFiles([join(fixtures, 'US_Top_Search_Terms_Simple_Week_2026_04_11.csv')])
  await owner.getByText(/week of .*: 100 rows/).waitFor()
  await owner.getByRole('table').getByRole('button', { name: 'Delete' }).first().waitFor()

  await member.goto(`/dashboard/imports?ws=${org}`)
  await member.getByRole('table').getByText('US_Top_Search_Terms_Simple_Week_2026_04_11.csv').waitFor()
  await member.getByText(/lets you read its reports; its admins and owners import them/).waitFor()
  assert.equal(await member.getByRole('button', { name: 'Delete' }).count(), 0, 'no delete button for a member')
  assert.equal(await member.getByLabel('Report files').count(), 0, 'no upload for a member')
  await noSideScroll(member, 'the imports page')
  await member.screenshot({ path: join(screenshotDir, 'imports-member-390-light.png'), fullPage: true })
  // The server refuses the member's delete whatever the screen shows.
  const datasets = await (await member.request.get(`/api/trends/${org}/datasets`)).json()
  assert.equal(datasets.datasets.length, 1)
  const del = await member.request.delete(`/api/trends/${org}/datasets/${datasets.datasets[0].id}/periods/2026-04-05`, { headers: { origin: app.baseURL } })
  assert.equal(del.status(), 403)
  await member.goto(`/dashboard?ws=${org}`)
  await member.getByLabel('Dataset').first().waitFor()
  await noSideScroll(member, 'the overview')

  // The member's settings page shows members and no management controls; it fits the phone.
  await member.goto(`/dashboard/workspace?ws=${org}`)
  await member.getByRole('heading', { name: 'Acme Sellers: settings' }).waitFor()
  await member.getByRole('region', { name: 'Members (2)' }).getByText('Max Member (you)').waitFor()
  assert.equal(await member.getByRole('button', { name: 'Invite', exact: true }).count(), 0)
  await noSideScroll(member, 'the workspace settings')
  // The billing page follows the selected workspace.
  await member.goto(`/dashboard/billing?ws=${org}`)
  await member.getByRole('heading', { name: 'Plan and billing: Acme Sellers' }).waitFor()
  await noSideScroll(member, 'the billing page')
})

test('a team and its own watchlist, on a phone in the dark theme', async () => {
  await owner.setViewportSize({ width: 390, height: 844 })
  await owner.goto(`/dashboard/workspace?ws=${org}`)
  await owner.getByLabel('Team name').fill('Growth')
  await owner.getByRole('button', { name: 'Create team' }).click()
  await owner.getByLabel('Add a member to Growth').waitFor()
  await owner.getByLabel('Add a member to Growth').selectOption({ label: 'max@example.com' })
  await owner.getByLabel('Add a member to Growth').locator('xpath=..').getByRole('button', { name: 'Add', exact: true }).click()
  await owner.getByRole('list', { name: 'Members of Growth' }).getByText('max@example.com').waitFor()
  await noSideScroll(owner, 'the teams section')

  // The member opens the team's list from the picker and adds a term to it.
  await member.goto(`/dashboard/watchlist?ws=${org}`)
  // At 390 px the theme switch sits in the menu.
  await member.getByRole('button', { name: /Menu/ }).click()
  await member.getByRole('button', { name: 'Switch to dark theme' }).click()
  await member.getByRole('button', { name: /Close/ }).click()
  await member.waitForFunction(() => document.documentElement.classList.contains('dark'))
  // The list picker: the organization's list or one of its teams'.
  const picker = member.getByRole('combobox').filter({ has: member.getByRole('option', { name: 'The organization’s' }) })
  await picker.waitFor()
  await picker.selectOption({ label: 'Team Growth' })
  await member.getByText('This team’s own list: its alert digests go to the team’s members only.').waitFor()
  await member.getByLabel('Term, ASIN or brand').fill('yoga mat')
  await member.getByRole('form', { name: 'Add to the team’s watchlist' }).getByRole('button', { name: 'Add' }).click()
  await member.getByText('Added to the team’s watchlist').waitFor()
  await member.getByRole('main').getByText('yoga mat').first().waitFor()
  await member.getByText('1 item: no limit on your plan.').waitFor() // plans are not enforced here
  assert.ok(await member.evaluate(() => document.documentElement.classList.contains('dark')), 'the dark theme holds')
  await noSideScroll(member, 'the team watchlist')
  await member.screenshot({ path: join(screenshotDir, 'team-watchlist-390-dark.png'), fullPage: true })
  // The organization's own list stays apart from the team's.
  const orgList = await (await member.request.get(`/api/trends/${org}/watchlist`)).json()
  assert.ok(!JSON.stringify(orgList).includes('yoga mat'), "the team's item is not on the organization's list")
})
