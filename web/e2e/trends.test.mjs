// A seller's week in headless Chromium: open the demo, find a rising term, open it, compare two
// terms, import reports with progress, see them in the overview, watch a term, export a CSV.
// Screenshots of every screen in light and dark land in e2e/screenshots/ (not committed).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { join, dirname } from 'node:path'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { startApp, startInbox, launchBrowser, screenshotDir } from './support/harness.mjs'

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures')
let app, inbox, chrome, page

before(async () => {
  inbox = await startInbox()
  app = await startApp({ SMTP_URL: inbox.url }, { demo: { terms: 1500, weeks: 70 } })
  chrome = await launchBrowser()
  const context = await chrome.browser.newContext({ baseURL: app.baseURL, acceptDownloads: true })
  page = await context.newPage()
  const res = await page.request.post('/api/auth/sign-up/email', {
    data: { name: 'Sam Seller', email: 'sam@example.com', password: 'password-123' },
    headers: { origin: app.baseURL },
  })
  assert.equal(res.status(), 200)
})

after(async () => {
  await chrome?.close()
  await app?.stop()
  await inbox?.close()
})

async function shoot(name) {
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => { document.documentElement.classList.remove('light', 'dark'); document.documentElement.classList.add(t) }, theme)
    await page.screenshot({ path: join(screenshotDir, `${name}-${theme}.png`), fullPage: true })
  }
  await page.evaluate(() => { document.documentElement.classList.remove('dark'); document.documentElement.classList.add('light') })
}

test('the dashboard loads at most 250 KB of gzipped JavaScript', async () => {
  const scripts = []
  const collect = (res) => res.url().includes('/assets/') && res.url().endsWith('.js') && scripts.push(res)
  page.on('response', collect)
  await page.goto('/dashboard?ws=demo')
  await page.getByRole('heading', { name: 'Top risers' }).waitFor()
  page.off('response', collect)
  // content-length is the gzipped size the server sent (it compresses hashed assets).
  const sizes = await Promise.all(scripts.map(async (r) => Number((await r.allHeaders())['content-length'] ?? 0)))
  const js = sizes.reduce((a, b) => a + b, 0)
  console.log(`initial JavaScript for /dashboard: ${(js / 1024).toFixed(1)} KB gzipped`)
  assert.ok(js > 20_000 && js <= 250 * 1024, `initial JS ${js} bytes`)
})

test('open the demo, find a rising term, open it and compare two terms', async () => {
  await page.goto('/dashboard?ws=demo')
  await page.getByText('Demo data').first().waitFor()
  const risers = page.getByRole('region', { name: 'Top risers' }).getByRole('link')
  await risers.first().waitFor()
  const [first, second] = [await risers.nth(0).innerText(), await risers.nth(1).innerText()]
  await shoot('overview')
  await risers.first().click()
  await page.waitForURL(/\/dashboard\/term\?/)
  await page.getByRole('img', { name: /Rank history/ }).waitFor()
  await page.locator('canvas').first().waitFor()
  await page.getByRole('img', { name: /Click share of the top 3 clicked products/ }).waitFor()
  await page.getByLabel('Compare with').fill(second.replace(/(New|Breakout)/g, '').trim())
  await page.getByRole('button', { name: 'Add to chart' }).click()
  await page.getByRole('heading', { name: / vs / }).waitFor()
  assert.match(decodeURIComponent(page.url()), /t=\[".+",".+"\]/, 'both terms are kept in the URL')
  assert.ok(first.length > 0)
  await shoot('term')
  await page.goto('/dashboard/explore?ws=demo&list=risers&sort=change4&order=desc')
  await page.getByText(/\d+ terms/).waitFor()
  await shoot('explore')
})

test('import two weekly reports with progress, then see them in the overview', async () => {
  await page.goto('/dashboard/imports')
  await page.getByLabel('Report files').setInputFiles([
    join(fixtures, 'US_Top_Search_Terms_Simple_Week_2026_04_11.csv'),
    join(fixtures, 'US_Top_Search_Terms_Simple_Week_2026_04_18.csv'),
  ])
  await page.getByRole('progressbar', { name: /Upload of US_Top_Search_Terms_Simple_Week_2026_04_11/ }).waitFor()
  await page.getByText(/week of .*: 100 rows/).waitFor()
  await page.getByText(/week of .*: 101 rows/).waitFor()
  await page.getByRole('table').getByText('US_Top_Search_Terms_Simple_Week_2026_04_18.csv').waitFor()
  await shoot('imports')
  const own = await page.evaluate(async () => (await (await fetch('/api/workspaces')).json())[0].id)
  await page.goto(`/dashboard?ws=${own}`)
  await page.getByRole('region', { name: 'Top risers' }).getByRole('link').first().waitFor()
  assert.equal(await page.getByText('Demo data').count(), 0)
})

test('watch a term, and export the explore view as CSV', async () => {
  const own = await page.evaluate(async () => (await (await fetch('/api/workspaces')).json())[0].id)
  await page.goto(`/dashboard/term?ws=${own}&t=yoga+mat`)
  await page.getByRole('button', { name: 'Watch “yoga mat”' }).click()
  await page.getByText('Watching “yoga mat”').waitFor()
  await page.goto(`/dashboard/watchlist?ws=${own}`)
  await page.getByRole('link', { name: 'yoga mat' }).waitFor()
  await page.getByLabel(/Once a week/).check()
  await page.getByRole('button', { name: 'Save alert settings' }).click()
  await page.getByText('Alert settings saved').waitFor()
  assert.equal((await (await page.request.get('/api/alerts/settings')).json()).frequency, 'weekly')
  await shoot('watchlist')
  await page.goto(`/dashboard/explore?ws=${own}&q=yoga`)
  await page.getByRole('link', { name: 'yoga mat' }).waitFor()
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()])
  const csv = readFileSync(await download.path(), 'utf8').trim().split('\n')
  assert.match(csv[0], /^term,rank,rank_1_ago/)
  assert.ok(csv.some((l) => l.startsWith('yoga mat,125,148,')), csv.join('\n'))
  await page.goto('/dashboard/account')
  await page.getByRole('heading', { name: 'Active sessions' }).waitFor()
  await shoot('account')
})
