/**
 * The dashboard (`sangam ui`, the real process) in a real headless Chromium, on a project with 20
 * agents (present through the real hooks) and 10,000 captured events:
 *
 * - first paint of Now: Chromium's own paint timing (first-contentful-paint, and the
 *   largest-contentful-paint once the 20 agents are shown), over fresh loads of the page. Baseline,
 *   same run and browser: a static page's first paint from a bare node server. Target < 300 ms.
 * - event appended → visible: an event written to the replica as capture writes it, timed until its
 *   text is on an open Timeline page (the server's change watch, the SSE push, the refetch, the
 *   render). Baseline: the same wait for a text already on the page (what the measuring costs).
 *   Target p95 < 1 s.
 * - the dashboard server's RSS after all that (peak and current), against an idle `node` process.
 *   Target < 150 MB.
 *
 *   npm run build && node --import tsx bench/ui.ts [loads] [appends]
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Page } from 'playwright-core'
import { openDatabaseFile } from '../src/project/store/project-database.ts'
import type { EventSpec } from '../test/helpers/memory-fixture.ts'
import { EventStore } from '../test/helpers/memory-fixture.ts'
import { recallProject } from '../test/helpers/recall-project.ts'
import { git } from '../test/helpers/tmp-git-repo.ts'
import { launchChromium, signedIn, startUi } from '../test/helpers/ui-browser.ts'
import { runAgentHook } from '../test/hooks-agent-run.ts'

const loads = Number(process.argv[2] ?? 15)
const appends = Number(process.argv[3] ?? 40)
const agents = 20
const events = 10_000

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

const median = (values: number[]): number =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  )

/** VmRSS and VmHWM of a process, in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN)
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 }
}

async function paintOf(page: Page, url: string, ready: (page: Page) => Promise<void>) {
  await page.goto(url)
  await ready(page)
  const fcp = (await page.evaluate(
    "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null",
  )) as number | null
  const lcp = (await page.evaluate(
    `new Promise((resolve) => new PerformanceObserver((list) => { const all = list.getEntries(); resolve(all[all.length - 1].startTime) }).observe({ type: 'largest-contentful-paint', buffered: true }))`,
  )) as number
  return { fcp: fcp ?? Number.NaN, lcp }
}

async function main(): Promise<void> {
  await using project = await recallProject({ SANGAM_USER: 'asha@example.com' })
  const cwd = project.repo.path
  git(cwd, 'commit', '-q', '--allow-empty', '-m', 'base')
  const sessions = Array.from({ length: agents }, (_, i) =>
    i % 2 === 0
      ? `c1aude-${String(i).padStart(4, '0')}-bench`
      : `019e0000-c0de-7000-8000-${String(i).padStart(12, '0')}`,
  )
  for (const [i, session] of sessions.entries()) {
    const host = i % 2 === 0 ? 'claude' : 'codex'
    const run = await runAgentHook(
      host,
      {
        session_id: session,
        transcript_path: null,
        cwd,
        hook_event_name: 'SessionStart',
        prompt: 'go',
        source: 'startup',
      },
      { cwd, env: project.env },
    )
    if (run.code !== 0) throw new Error(`hook ${i}: ${run.stderr}`)
  }
  const now = Date.now()
  const kinds = ['human', 'assistant', 'tool_call', 'tool_output', 'thinking'] as const
  const specs: EventSpec[] = Array.from({ length: events }, (_, n) => {
    const i = n % agents
    return {
      id: `ev_bench_${String(n).padStart(6, '0')}`,
      text: `event ${n} of session ${i}: editing src/module-${n % 97}.ts and checking the tests`,
      kind: kinds[n % kinds.length],
      vendor: i % 2 === 0 ? 'claude' : 'codex',
      sessionId: sessions[i],
      author: 'asha@example.com',
      cwd,
      at: now - (events - n) * 8_000, // the last ~22 hours
      ...(n % kinds.length === 2 ? { toolName: 'Edit' } : {}),
    }
  })
  project.add(...specs)

  await using ui = await startUi(cwd, project.env)
  const browser = await launchChromium()
  const baseline = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html' })
    response.end('<!doctype html><title>static</title><h1 id="page-title">Now</h1><p>A static page.</p>')
  })
  await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve))
  const idle = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
  try {
    const context = await signedIn(browser, ui)
    const nowReady = async (page: Page) => {
      await page
        .locator('[data-testid="actors"] tbody tr')
        .nth(agents - 1)
        .waitFor()
    }
    const staticReady = async (page: Page) => {
      await page.locator('#page-title').waitFor()
    }
    const staticUrl = `http://127.0.0.1:${(baseline.address() as AddressInfo).port}/`
    const dash = { fcp: [] as number[], lcp: [] as number[] }
    const bare = { fcp: [] as number[] }
    // One load of each first, not counted: Chromium's own start-up and the server's first reads.
    for (let i = 0; i <= loads; i++) {
      const page = await context.newPage()
      const paint = await paintOf(page, `${ui.origin}/#/now`, nowReady)
      await page.close()
      const other = await context.newPage()
      const flat = await paintOf(other, staticUrl, staticReady)
      await other.close()
      if (i === 0) continue
      dash.fcp.push(paint.fcp)
      dash.lcp.push(paint.lcp)
      bare.fcp.push(flat.fcp)
    }

    const page = await context.newPage()
    await page.goto(`${ui.origin}/#/timeline`)
    await page.locator('[data-testid="feed-status"][data-status="live"]').waitFor()
    await page.locator('[data-testid="timeline"] li.event').first().waitFor()
    const lags: number[] = []
    const waits: number[] = []
    const db = openDatabaseFile(project.database)
    const store = new EventStore(db)
    try {
      for (let i = 0; i < appends; i++) {
        const token = `visibletoken${i}x${Math.random().toString(36).slice(2, 8)}`
        const started = performance.now()
        store.add({
          id: `ev_bench_live_${i}`,
          text: `live event ${i} ${token}`,
          kind: 'assistant',
          sessionId: sessions[i % agents],
          author: 'asha@example.com',
          cwd,
          at: Date.now(),
        })
        await page.getByText(token).waitFor({ timeout: 10_000 })
        lags.push(performance.now() - started)
        const waitAt = performance.now()
        await page.getByText(token).waitFor()
        waits.push(performance.now() - waitAt)
        await sleep(50 + Math.random() * 150)
      }
    } finally {
      db.close()
    }
    const server = memoryOf(ui.child.pid ?? 0)
    const node = memoryOf(idle.pid ?? 0)
    lags.sort((a, b) => a - b)
    waits.sort((a, b) => a - b)
    const fcp = median(dash.fcp)
    const lcp = median(dash.lcp)
    const base = median(bare.fcp)
    const lines = [
      `dashboard: sangam ui in headless Chromium, ${agents} agents (real hooks), ${events.toLocaleString('en')} events`,
      `  first paint of Now (Chromium paint timing, median of ${loads} loads): first-contentful-paint ${fcp.toFixed(0)} ms, largest-contentful-paint ${lcp.toFixed(0)} ms (max ${Math.max(...dash.lcp).toFixed(0)} ms)  (target < 300 ms)`,
      `    baseline: a static page's first-contentful-paint ${base.toFixed(0)} ms; ratio ${(fcp / base).toFixed(2)}x (first paint), ${(lcp / base).toFixed(2)}x (Now complete)`,
      `  event appended → visible on an open Timeline (${appends} events): p50 ${percentile(lags, 50).toFixed(0)} ms, p95 ${percentile(lags, 95).toFixed(0)} ms, max ${(lags.at(-1) ?? 0).toFixed(0)} ms  (target p95 < 1 s)`,
      `    baseline: the same wait for a text already shown, p50 ${percentile(waits, 50).toFixed(1)} ms, p95 ${percentile(waits, 95).toFixed(1)} ms`,
      `  server RSS: ${server.rss.toFixed(0)} MB now, ${server.peak.toFixed(0)} MB peak  (target < 150 MB); an idle node process: ${node.rss.toFixed(0)} MB, ratio ${(server.peak / node.rss).toFixed(1)}x`,
    ]
    process.stdout.write(`${lines.join('\n')}\n`)
  } finally {
    idle.kill()
    baseline.close()
    await browser.close()
  }
}

await main()
