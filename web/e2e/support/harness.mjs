// Browser-test harness: starts the built binary on 127.0.0.1 with a fresh DATA_DIR and an SMTP
// server the test owns, and Debian's chromium through playwright-core. Waits on events, never on time.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createServer } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { simpleParser } from 'mailparser'
import { chromium } from 'playwright-core'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
export const screenshotDir = join(root, 'web', 'e2e', 'screenshots')

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
    s.on('error', reject)
  })
}

// An in-process SMTP server; waitFor(to) resolves with the next parsed mail to that address.
export async function startInbox() {
  const mails = []
  const waiters = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      simpleParser(stream).then((parsed) => {
        const mail = { to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), subject: parsed.subject, text: parsed.text ?? '' }
        mails.push(mail)
        for (const w of [...waiters]) w()
        callback()
      }, callback)
    },
  })
  const port = await freePort()
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    url: `smtp://127.0.0.1:${port}`,
    waitFor(to, timeoutMs = 15000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail to ${to}`)), timeoutMs)
        const check = () => {
          const i = mails.findIndex((m) => m.to.includes(to.toLowerCase()))
          if (i < 0) return false
          clearTimeout(timer)
          waiters.splice(waiters.indexOf(check), 1)
          resolve(mails.splice(i, 1)[0])
          return true
        }
        waiters.push(check)
        check()
      })
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

// startApp runs bin/sellertrends and resolves once it prints that it listens. With demo set,
// the demo workspace is built first (synchronously, with `sellertrends demo`), so tests never wait.
// With dataDir set, the server runs on that existing directory and leaves it in place.
export async function startApp(env = {}, { demo, dataDir: keepDir } = {}) {
  const port = await freePort()
  const dataDir = keepDir ?? mkdtempSync(join(tmpdir(), 'sellertrends-e2e-'))
  if (demo) {
    const r = spawnSync(join(root, 'bin', 'sellertrends'), ['demo', '--terms', String(demo.terms), '--weeks', String(demo.weeks)], {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error' },
      encoding: 'utf8',
    })
    if (r.status !== 0) throw new Error(`sellertrends demo failed: ${r.stderr}`)
  }
  const baseURL = `http://127.0.0.1:${port}`
  const child = spawn(join(root, 'bin', 'sellertrends'), ['serve'], {
    env: { ...process.env, PORT: String(port), BASE_URL: baseURL, DATA_DIR: dataDir, LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (d) => (stderr += d))
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => String(d).includes('listening') && resolve())
    child.on('exit', (code) => reject(new Error(`sellertrends exited with ${code}: ${stderr}`)))
  })
  return {
    baseURL,
    async stop() {
      const exited = new Promise((resolve) => child.on('exit', resolve))
      child.kill('SIGTERM')
      await exited
      if (!keepDir) rmSync(dataDir, { recursive: true, force: true })
    },
    pid: child.pid,
  }
}

export async function launchBrowser(extraArgs = []) {
  mkdirSync(screenshotDir, { recursive: true })
  // playwright-core gives every launch a fresh, empty profile directory of its own.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ...extraArgs,
    ],
  })
  return { browser, close: () => browser.close() }
}

export function linkIn(mail, part) {
  const link = (mail.text.match(/https?:\/\/\S+/g) ?? []).find((u) => u.includes(part))
  if (!link) throw new Error(`no link with ${part} in: ${mail.text}`)
  return link
}
