// Dashboard benchmark (not a test): serves BENCH_DATA_DIR (a store whose demo workspace holds the
// benchmark set: `sellertrends demo --direct --terms 3000000 --weeks 156`), opens every screen in
// headless Chromium with a cold page (a full load: JavaScript, session, data), and prints how long
// each takes until its content is on screen and no skeleton is left, plus the server's peak RSS.
// Run through `make bench-dashboard`.
import { readFileSync } from 'node:fs'
import { startApp, startInbox, launchBrowser } from './support/harness.mjs'

const dataDir = process.env.BENCH_DATA_DIR
if (!dataDir) throw new Error('BENCH_DATA_DIR must name a data directory holding the benchmark set')
const runs = Number(process.env.RUNS ?? 5)

const chrome = await launchBrowser()
const inbox = await startInbox()
const app = await startApp({ SMTP_URL: inbox.url, ...(process.env.DUCKDB_MEMORY_LIMIT ? { DUCKDB_MEMORY_LIMIT: process.env.DUCKDB_MEMORY_LIMIT } : {}) }, { dataDir })
try {
  const context = await chrome.browser.newContext({ baseURL: app.baseURL })
  const page = await context.newPage()
  const res = await page.request.post('/api/auth/sign-up/email', {
    data: { name: 'Bench Seller', email: `bench-${Date.now()}@example.com`, password: 'password-123' },
    headers: { origin: app.baseURL },
  })
  if (res.status() !== 200) throw new Error(`sign-up: ${res.status()}`)

  // Terms, a product and a brand to open, read from the API like the screens read them.
  const api = async (path) => (await page.request.get(path)).json()
  const { datasets } = await api('/api/trends/demo/datasets')
  const ds = datasets[0].id
  const explore = await api(`/api/trends/demo/datasets/${ds}/terms?sort=change4&order=desc&limit=20&list=risers`)
  const terms = explore.rows.map((r) => r.term)
  const asin = explore.rows.find((r) => r.topAsin).topAsin
  // A brand from the top term's history (the latest period may come from an SP-API file, which
  // names no brands).
  const history = await api(`/api/trends/demo/datasets/${ds}/history?term=${encodeURIComponent(terms[0])}`)
  const brand = history.terms[0].points.findLast((p) => p.brands?.length)?.brands[0]
  const t = (list) => encodeURIComponent(JSON.stringify(list))
  const screens = [
    ['overview', `/dashboard?ws=demo&ds=${ds}`, () => page.getByRole('region', { name: 'Top risers' }).getByRole('link').first()],
    ['explore: substring "mat", sorted by 4-period change', `/dashboard/explore?ws=demo&ds=${ds}&q=mat&sort=change4&order=desc`, () => page.getByText(/[\d,.]+ terms/).first()],
    ['explore: risers over 4 periods', `/dashboard/explore?ws=demo&ds=${ds}&list=risers&window=4&sort=change4&order=desc`, () => page.getByText(/[\d,.]+ terms/).first()],
    ['term page (history, products, related, seasonality)', `/dashboard/term?ws=demo&ds=${ds}&t=${t([terms[0]])}`, () => page.getByRole('img', { name: /Rank history/ })],
    ['term page, 10 terms compared', `/dashboard/term?ws=demo&ds=${ds}&t=${t(terms.slice(0, 10))}`, () => page.getByRole('img', { name: /Rank history/ })],
    ['product page', `/dashboard/product?ws=demo&ds=${ds}&asin=${asin}`, () => page.getByRole('table').first()],
    ['brand page', `/dashboard/brand?ws=demo&ds=${ds}&b=${encodeURIComponent(brand)}`, () => page.getByRole('table').first()],
    ['watchlist', '/dashboard/watchlist', () => page.getByRole('heading', { level: 1 }).first()],
    ['imports', '/dashboard/imports', () => page.getByLabel('Report files')],
  ]
  console.log(`dashboard on ${datasets[0].periods} periods of the demo workspace in ${dataDir}; ${runs} cold loads per screen`)
  console.log('| screen | median ms | max ms |')
  console.log('|---|---|---|')
  const slow = []
  for (const [name, url, ready] of screens) {
    const times = []
    for (let i = 0; i < runs; i++) {
      const start = Date.now()
      await page.goto(url)
      await ready().waitFor({ timeout: 60_000 })
      await page.locator('.animate-pulse').first().waitFor({ state: 'detached', timeout: 60_000 })
      times.push(Date.now() - start)
    }
    times.sort((a, b) => a - b)
    const median = times[Math.floor(times.length / 2)]
    if (median > 1500) slow.push(name)
    console.log(`| ${name} | ${median} | ${times[times.length - 1]} |`)
  }
  const status = readFileSync(`/proc/${app.pid}/status`, 'utf8')
  console.log(`server peak RSS: ${status.match(/VmHWM:\s+(.*)/)[1]}`)
  console.log(slow.length ? `over 1.5 s: ${slow.join(', ')}` : 'every screen interactive within 1.5 s')
} finally {
  await chrome.close()
  await app.stop()
  await inbox.close()
}
