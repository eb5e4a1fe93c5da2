// Issue 28's screens in headless Chromium against the built binary: every page at 390x844 with no
// sideways scroll, the (i) controls by keyboard and touch, page titles, the watch state, explore's
// filters and sorting, a refused comparison, charts that follow the theme, and the demo's first
// generation. Waits on events and elements, never on time.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { startApp, launchBrowser, screenshotDir } from './support/harness.mjs'

let app, chrome, desktop, phone, sample

before(async () => {
  app = await startApp({}, { demo: { terms: 800, weeks: 60 } })
  chrome = await launchBrowser()
  desktop = await chrome.browser.newContext({ baseURL: app.baseURL })
  const res = await desktop.request.post('/api/auth/sign-up/email', {
    data: { name: 'Pat Phone', email: 'pat@example.com', password: 'password-123' },
    headers: { origin: app.baseURL },
  })
  assert.equal(res.status(), 200)
  // The phone shares the desktop's session cookie.
  phone = await chrome.browser.newContext({ baseURL: app.baseURL, viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, storageState: await desktop.storageState() })
  sample = await demoSample(desktop)
})

after(async () => {
  await chrome?.close()
  await app?.stop()
})

// demoSample picks a term with products and brands from the demo, through the API.
async function demoSample(context) {
  const get = async (path) => (await context.request.get(path)).json()
  const ds = (await get('/api/trends/demo/datasets')).datasets[0].id
  const top = (await get(`/api/trends/demo/datasets/${ds}/terms?sort=rank&limit=20`)).rows
  for (const row of top) {
    const h = (await get(`/api/trends/demo/datasets/${ds}/history?term=${encodeURIComponent(row.term)}`)).terms[0]
    const last = h.points.findLast((p) => p.products?.length && p.brands?.length)
    if (last) return { ds, term: row.term, asin: last.products[0].asin, brand: last.brands[0] }
  }
  throw new Error('no demo term with products and brands')
}

async function noSidewaysScroll(page, what) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }))
  assert.ok(scroll <= width, `${what}: the page is ${scroll}px wide in a ${width}px viewport`)
}

test('every page fits a 390x844 phone without sideways scroll, and has its own title', async () => {
  const page = await phone.newPage()
  const q = `ws=demo&ds=${sample.ds}`
  const pages = [
    ['/dashboard?ws=demo', () => page.getByRole('heading', { name: 'Top risers' }).waitFor()],
    [`/dashboard/explore?${q}`, () => page.getByText(/\d[\d,]* terms/).waitFor()],
    [`/dashboard/explore?${q}&list=risers&sort=change4&order=desc`, () => page.getByText(/\d[\d,]* terms/).waitFor()],
    [`/dashboard/term?${q}&t=${encodeURIComponent(sample.term)}`, () => page.getByRole('heading', { name: 'Top clicked products and brands' }).waitFor()],
    [`/dashboard/product?${q}&asin=${sample.asin}`, () => page.getByRole('img', { name: /Click share over time/ }).waitFor()],
    [`/dashboard/brand?${q}&b=${encodeURIComponent(sample.brand)}`, () => page.getByRole('img', { name: /Click share over time/ }).waitFor()],
    ['/dashboard/watchlist?ws=demo', () => page.getByText(/Nothing watched yet|items on your plan/).waitFor()],
    ['/dashboard/imports', () => page.getByText('Where to download this report in Seller Central').waitFor()],
    ['/dashboard/account', () => page.getByRole('heading', { name: 'Active sessions' }).waitFor()],
    ['/dashboard/nowhere', () => page.getByRole('heading', { name: 'Not Found' }).waitFor()],
    ['/', () => page.getByRole('heading', { level: 1 }).waitFor()],
  ]
  const titles = new Map()
  for (const [path, ready] of pages) {
    await page.goto(path)
    await ready()
    await noSidewaysScroll(page, path)
    titles.set(path, await page.title())
  }
  await page.goto('/dashboard?ws=demo')
  await page.getByRole('heading', { name: 'Top risers' }).waitFor()
  await page.getByRole('button', { name: /Menu/ }).tap()
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Explore' }).tap()
  await page.waitForURL(/\/dashboard\/explore/)
  await page.screenshot({ path: join(screenshotDir, 'phone-explore.png'), fullPage: true })
  // Signed out, the sign-in page fits too.
  const anon = await (await chrome.browser.newContext({ baseURL: app.baseURL, viewport: { width: 390, height: 844 } })).newPage()
  await anon.goto('/sign-in')
  await anon.getByRole('heading', { name: 'Sign in to sellertrends' }).waitFor()
  await noSidewaysScroll(anon, '/sign-in')
  titles.set('/sign-in', await anon.title())
  const distinct = new Set([...titles.values()].filter((t) => t.endsWith('· sellertrends')))
  assert.ok(distinct.size >= 10, `page titles: ${JSON.stringify([...titles])}`)
  assert.equal(titles.get(`/dashboard/term?${q}&t=${encodeURIComponent(sample.term)}`), `${sample.term} · sellertrends`)
  await page.close()
})

test('/dashboard/<unknown> answers 404', async () => {
  const res = await fetch(`${app.baseURL}/dashboard/no-such-screen`)
  assert.equal(res.status, 404)
  assert.equal((await fetch(`${app.baseURL}/dashboard/explore`)).status, 200)
})

test('the (i) of a measure opens by keyboard and by touch, and stays on a phone screen', async () => {
  const page = await phone.newPage()
  await page.goto(`/dashboard/explore?ws=demo&ds=${sample.ds}`)
  await page.getByText(/\d[\d,]* terms/).waitFor()
  const info = page.getByRole('button', { name: 'What is Seasonality?' })
  await info.focus()
  await page.keyboard.press('Enter')
  const note = page.getByRole('note', { name: 'Seasonality' })
  await note.waitFor()
  assert.match(await note.innerText(), /same period a year earlier/)
  const box = await note.boundingBox()
  assert.ok(box.x >= 0 && box.x + box.width <= 390, `note at ${box.x}..${box.x + box.width}`)
  await noSidewaysScroll(page, 'explore with a note open')
  await page.keyboard.press('Escape')
  await note.waitFor({ state: 'detached' })
  assert.equal(await info.evaluate((el) => el === document.activeElement), true, 'focus returns to the (i)')
  await page.keyboard.press('Space')
  await note.waitFor()
  await page.keyboard.press('Escape')
  await note.waitFor({ state: 'detached' })
  const breakout = page.getByRole('button', { name: 'What is Click concentration?' })
  await breakout.tap()
  await page.getByRole('note', { name: 'Click concentration' }).waitFor()
  await page.getByRole('heading', { name: 'Explore' }).tap()
  await page.getByRole('note', { name: 'Click concentration' }).waitFor({ state: 'detached' })
  await page.close()
})

test('the Watch button shows its state on term, product and brand pages, on the demo', async () => {
  const page = await desktop.newPage()
  const q = `ws=demo&ds=${sample.ds}`
  for (const [path, name] of [
    [`/dashboard/term?${q}&t=${encodeURIComponent(sample.term)}`, `“${sample.term}”`],
    [`/dashboard/product?${q}&asin=${sample.asin}`, sample.asin],
    [`/dashboard/brand?${q}&b=${encodeURIComponent(sample.brand)}`, sample.brand],
  ]) {
    await page.goto(path)
    await page.getByRole('button', { name: `Watch ${name}` }).click()
    await page.getByRole('status').filter({ hasText: 'Watching ✓' }).waitFor()
    await page.getByRole('button', { name: `Unwatch ${name}` }).waitFor()
  }
  // Unwatching the term brings the Watch button back.
  await page.goto(`/dashboard/term?${q}&t=${encodeURIComponent(sample.term)}`)
  await page.getByRole('button', { name: `Unwatch “${sample.term}”` }).click()
  await page.getByRole('button', { name: `Watch “${sample.term}”` }).waitFor()
  // The watched product and brand show their latest numbers on the watchlist.
  await page.goto(`/dashboard/watchlist?${q}`)
  await page.getByText(/top 3 of \d+ terms?/).first().waitFor()
  assert.equal(await page.getByText(/top 3 of \d+ terms?/).count(), 2)
  await page.close()
})

test('explore: filters apply on Enter with suggestions, every column toggles its sort, filters clear', async () => {
  const page = await desktop.newPage()
  await page.goto(`/dashboard/explore?ws=demo&ds=${sample.ds}`)
  await page.getByText(/\d[\d,]* terms/).waitFor()
  const brand = page.getByLabel('Brand')
  await brand.fill(sample.brand.slice(0, 2))
  await page.waitForFunction((b) => [...document.querySelectorAll('[data-testid="brand-suggestions"] option')].some((o) => o.value === b), sample.brand)
  await brand.fill(sample.brand)
  await brand.press('Enter')
  await page.waitForURL((u) => u.searchParams.get('brand') === sample.brand)
  await page.getByText(/\d[\d,]* terms?$/).waitFor()
  await page.getByRole('button', { name: 'Sort by change over 4 weeks' }).click()
  await page.waitForURL((u) => u.searchParams.get('sort') === 'change4' && u.searchParams.get('order') === 'desc')
  await page.getByRole('button', { name: 'Sort by change over 4 weeks' }).click()
  await page.waitForURL((u) => u.searchParams.get('sort') === 'change4' && u.searchParams.get('order') === 'asc')
  await page.getByRole('button', { name: 'Term', exact: false }).first().click()
  await page.waitForURL((u) => u.searchParams.get('sort') === 'term' && u.searchParams.get('order') === 'asc')
  await page.getByRole('button', { name: /^Term/ }).click()
  await page.waitForURL((u) => u.searchParams.get('sort') === 'term' && u.searchParams.get('order') === 'desc')
  await page.getByRole('button', { name: 'Clear filters' }).click()
  await page.waitForURL((u) => !u.searchParams.has('brand'))
  // The field follows the URL on the render after it changes: wait for it, then check it.
  const field = await page.getByLabel('Brand').elementHandle()
  await page.waitForFunction((el) => el.value === '', field)
  assert.equal(await page.getByLabel('Brand').inputValue(), '')
  await page.close()
})

test('explore shows an error, not a skeleton forever, when the API fails', async () => {
  const page = await desktop.newPage()
  await page.route('**/terms?*', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"code":"INTERNAL_SERVER_ERROR","message":"database is locked"}' }))
  await page.goto(`/dashboard/explore?ws=demo&ds=${sample.ds}`)
  const alert = page.getByRole('alert').filter({ hasText: 'The server could not answer' })
  await alert.waitFor({ timeout: 30_000 }) // the query retries 3 times with backoff first
  assert.equal(await page.getByText('database is locked').count(), 0)
  await page.close()
})

test('a compared term that is not in the dataset is refused; legends name the week; charts follow the theme', async () => {
  const page = await desktop.newPage()
  await page.goto(`/dashboard/term?ws=demo&ds=${sample.ds}&t=${encodeURIComponent(sample.term)}`)
  await page.getByRole('img', { name: /Rank history/ }).locator('canvas').first().waitFor()
  const before = page.url()
  await page.getByLabel('Compare with').fill('no such term anywhere')
  await page.getByRole('button', { name: 'Add to chart' }).click()
  await page.getByRole('alert').filter({ hasText: '“no such term anywhere” is not in this dataset' }).waitFor()
  assert.equal(page.url(), before)
  // Hovering the chart reads the period as a week: "Nov 30 – Dec 6, 2025".
  const chart = page.getByRole('img', { name: /Rank history/ })
  const canvas = chart.locator('.u-over')
  const box = await canvas.boundingBox()
  await page.mouse.move(box.x + box.width * 0.7, box.y + box.height / 2)
  const legend = chart.locator('.u-legend .u-series').first().locator('.u-value')
  await page.waitForFunction((el) => /^[A-Z][a-z]{2} \d{1,2}(, \d{4})? – [A-Z][a-z]{2} \d{1,2}, \d{4}$/.test(el.textContent), await legend.elementHandle())
  // A theme change rebuilds the chart at once in the new colours.
  await chart.locator('.uplot').evaluate((el) => (el.dataset.old = '1'))
  await page.getByRole('button', { name: /Switch to dark theme/ }).click()
  await chart.locator('.uplot:not([data-old])').waitFor()
  await page.getByRole('button', { name: /Switch to light theme/ }).click()
  await page.close()
})

test('the imports page has the lenient switch and says where to download the report', async () => {
  const page = await desktop.newPage()
  await page.goto('/dashboard/imports')
  const lenient = page.getByRole('switch', { name: /Skip bad values/ })
  assert.equal(await lenient.isChecked(), false)
  await lenient.check()
  assert.equal(await lenient.isChecked(), true)
  await page.getByText('Where to download this report in Seller Central').click()
  await page.getByText(/Brands → Brand Analytics/).waitFor()
  await page.close()
})

test('on a first start the demo says it is being generated', async () => {
  const fresh = await startApp()
  try {
    const context = await chrome.browser.newContext({ baseURL: fresh.baseURL })
    const res = await context.request.post('/api/auth/sign-up/email', { data: { name: 'New', email: 'new@example.com', password: 'password-123' }, headers: { origin: fresh.baseURL } })
    assert.equal(res.status(), 200)
    const page = await context.newPage()
    await page.goto('/dashboard?ws=demo')
    await page.getByText(/The demo is being generated: week \d+ of 104/).waitFor()
    await noSidewaysScroll(page, 'demo being generated')
    await context.close()
  } finally {
    await fresh.stop()
  }
})
