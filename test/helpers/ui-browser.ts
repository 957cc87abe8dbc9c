import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, type BrowserContext, chromium } from 'playwright-core'
import { projectRoot, spawnCli } from './run-cli.ts'

/** Debian's Chromium (`.ci/run` installs it); playwright-core drives it, it downloads nothing. */
export const chromiumPath = process.env.SANGAM_CHROMIUM ?? '/usr/bin/chromium'

/** Screenshots of every page, for review (git-ignored). */
export const screenshotDir = join(projectRoot, 'artifacts', 'ui')

export function hasChromium(): boolean {
  return existsSync(chromiumPath)
}

/**
 * A headless Chromium. `hostRules` maps other host names to loopback inside the browser only (a
 * DNS rebinding attack's view: a foreign name that resolves to 127.0.0.1).
 */
export async function launchChromium(options: { hostRules?: string } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    // Root in CI containers: Chromium's sandbox needs user namespaces it may not get there.
    args: ['--no-sandbox', ...(options.hostRules ? [`--host-resolver-rules=${options.hostRules}`] : [])],
  })
}

export interface UiServer extends AsyncDisposable {
  /** The printed URL, with the run's token. */
  readonly url: string
  readonly origin: string
  readonly port: number
  readonly child: ChildProcess
  /** What the server wrote to stderr so far (for failure messages). */
  stderr(): string
}

/** Starts the real `sangam ui --no-open --json` in `cwd` and waits for its one line. */
export async function startUi(cwd: string, env: Record<string, string | undefined>): Promise<UiServer> {
  const child = spawnCli(['ui', '--no-open', '--json'], { cwd, env })
  let stdout = ''
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sangam ui printed no URL in 30 s: ${stderr}`)), 30_000)
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
      const end = stdout.indexOf('\n')
      if (end < 0) return
      clearTimeout(timer)
      resolve(stdout.slice(0, end))
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`sangam ui exited ${code}: ${stderr}`))
    })
  })
  const printed = JSON.parse(line) as { url: string; port: number }
  const origin = new URL(printed.url).origin
  return {
    url: printed.url,
    origin,
    port: printed.port,
    child,
    stderr: () => stderr,
    [Symbol.asyncDispose]: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}

/** A browser context that has been handed the token once (the cookie), in a colour scheme. */
export async function signedIn(
  browser: Browser,
  ui: UiServer,
  colorScheme: 'light' | 'dark' = 'light',
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme })
  const page = await context.newPage()
  const answer = await page.goto(ui.url)
  if (!answer?.ok()) throw new Error(`the printed URL answered ${answer?.status()}: ${ui.stderr()}`)
  await page.close()
  return context
}

export function screenshotPath(name: string): string {
  mkdirSync(screenshotDir, { recursive: true })
  return join(screenshotDir, `${name}.png`)
}
