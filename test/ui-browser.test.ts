import assert from 'node:assert/strict'
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { openConnection } from '../src/store/connection.ts'
import { claudeAssistant, claudeHuman } from './helpers/capture-transcripts.ts'
import { isolatedEnv, runCli, runCliJson } from './helpers/run-cli.ts'
import { samples } from './helpers/secret-samples.ts'
import { git, type TmpDir, type TmpRepo, tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'
import {
  chromiumPath,
  hasChromium,
  launchChromium,
  screenshotPath,
  signedIn,
  startUi,
  type UiServer,
} from './helpers/ui-browser.ts'
import { runAgentHook } from './hooks-agent-run.ts'

/**
 * The dashboard in a real headless Chromium, against the real `sangam ui` on a project whose
 * state real CLI processes and hooks made: each page shows it, a post from the CLI reaches an open
 * page without a reload, a post from the page is what `sangam read` reads, and the server
 * refuses a browser without the token, a foreign Host and a write from another origin.
 * Every page is saved as a screenshot under artifacts/ui/ (light and dark), for review.
 */

interface World {
  home: TmpDir
  repo: TmpRepo
  env: Record<string, string | undefined>
  laneOne: string
  laneTwo: string
  token: number
  taskId: string
  ui: UiServer
  browser: Browser
  context: BrowserContext
}

let w: World

async function makeWorld(): Promise<World> {
  assert.ok(hasChromium(), `no Chromium at ${chromiumPath} (.ci/run installs Debian's chromium)`)
  const home = tmpDir('sangam-ui-home-')
  const repo = tmpGitRepo({ commit: true })
  const env = isolatedEnv(home.path, { SANGAM_USER: 'asha@example.com' })
  repo.write('src/shared.ts', 'export const shared = 1\n')
  repo.write('src/auth/login.ts', 'export const login = 1\n')
  repo.commit('base')
  await runCliJson(['init', '--no-mcp'], { cwd: repo.path, env })
  const cli = (args: string[]) => runCliJson<Record<string, unknown>>(args, { cwd: repo.path, env })

  // Two lanes whose uncommitted work collides on one file, and a third that touches another.
  const laneOne = join(repo.path, '..', 'lane-one')
  const laneTwo = join(repo.path, '..', 'lane-two')
  const laneDocs = join(repo.path, '..', 'lane-docs')
  git(repo.path, 'worktree', 'add', '-q', laneOne, '-b', 'h/lane-one')
  git(repo.path, 'worktree', 'add', '-q', laneTwo, '-b', 'h/lane-two')
  git(repo.path, 'worktree', 'add', '-q', laneDocs, '-b', 'h/docs')
  writeFileSync(join(laneOne, 'src', 'shared.ts'), 'export const shared = "one"\n')
  writeFileSync(join(laneTwo, 'src', 'shared.ts'), 'export const shared = "two"\n')
  mkdirSync(join(laneDocs, 'docs'), { recursive: true })
  writeFileSync(join(laneDocs, 'docs', 'guide.md'), '# guide\n')

  // Agents as their hosts run the hooks: a Claude session working in lane one, a Codex one idle in lane two.
  const hook = (host: 'claude' | 'codex', cwd: string, name: string, session: string) =>
    runAgentHook(
      host,
      {
        session_id: session,
        transcript_path: null,
        cwd,
        hook_event_name: name,
        prompt: 'go',
        source: 'startup',
      },
      { cwd, env },
    )
  for (const run of [
    await hook('claude', laneOne, 'SessionStart', 'c1aude-0001-ui'),
    await hook('codex', laneTwo, 'SessionStart', '019e0000-c0de-7000-8000-00000000a11e'),
    await hook('codex', laneTwo, 'Stop', '019e0000-c0de-7000-8000-00000000a11e'),
  ])
    assert.equal(run.code, 0, run.stderr)

  // What the Claude session said, captured from its transcript by `sangam index`.
  const transcript = join(home.path, '.claude', 'projects', '-lane-one', 'c1aude-0001-ui.jsonl')
  mkdirSync(join(transcript, '..'), { recursive: true })
  writeFileSync(
    transcript,
    claudeHuman({
      cwd: laneOne,
      session: 'c1aude-0001-ui',
      text: 'make the projection rebuild incremental',
    }) +
      claudeAssistant({
        cwd: laneOne,
        session: 'c1aude-0001-ui',
        messageId: 'msg_ui_1',
        text: 'The projection now rebuilds only the touched partitions.',
      }),
  )
  const index = await runCli(['index', '--json'], { cwd: repo.path, env })
  assert.equal(index.code, 0, index.stderr)

  await cli(['post', 'schema question for @claude-lane-one: who owns the projection?'])
  await cli([
    'thread-open',
    '--title',
    'Need a decision on the schema',
    '--audience',
    'human-loop',
    '--reason',
    'two lanes disagree',
  ])
  await cli(['thread-open', '--title', 'Projection rewrite', '--participant', '@claude-lane-one'])
  const claim = await cli(['claim', 'src/auth/**', '--reason', 'rewrite the session store'])
  const token = (claim.leases as { token: number }[])[0]?.token ?? -1

  // Two managed lanes (`sangam lane`): mira (a Codex lane) publishes a change, then ravi's colliding change
  // starts a semantic task under the integration lock, so the lock is held by ravi.
  const as = (user: string, cwd: string, args: string[]) =>
    runCliJson<Record<string, unknown>>(args, { cwd, env: { ...env, SANGAM_USER: user } })
  const laneAt = async (name: string, agent: string[]) =>
    ((await as(`${name}@x.dev`, repo.path, ['lane', name, ...agent])).lane as { worktree: string }).worktree
  const mira = await laneAt('mira', ['--agent', 'codex'])
  const ravi = await laneAt('ravi', ['--no-agent'])
  writeFileSync(join(mira, 'plan.md'), '# plan: mira\n')
  assert.match(String((await as('mira@x.dev', mira, ['sync'])).outcome), /^published/)
  writeFileSync(join(ravi, 'plan.md'), '# plan: ravi\n')
  const task = await as('ravi@x.dev', ravi, ['sync'])
  assert.equal(task.outcome, 'task-started', JSON.stringify(task))
  const taskId = (task.task as { id: string }).id

  const ui = await startUi(repo.path, env)
  const browser = await launchChromium({ hostRules: 'MAP evil.example 127.0.0.1' })
  const context = await signedIn(browser, ui)
  return { home, repo, env, laneOne, laneTwo, token, taskId, ui, browser, context }
}

async function open(route: string, context = w.context): Promise<Page> {
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(`${w.ui.origin}/#/${route}`)
  await page.locator('#page-title').waitFor()
  await page.locator('[data-testid="feed-status"][data-status="live"]').waitFor()
  page.once('close', () => assert.deepEqual(errors, [], `no script errors on ${route}`))
  return page
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: screenshotPath(`${name}-light`), fullPage: true })
  const dark = await w.browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'dark' })
  await dark.addCookies(await w.context.cookies())
  const other = await dark.newPage()
  await other.goto(page.url())
  await other.locator('#page-title').waitFor()
  await other.waitForLoadState('networkidle')
  await other.screenshot({ path: screenshotPath(`${name}-dark`), fullPage: true })
  await dark.close()
}

const read = async () =>
  (
    await runCliJson<{ messages: { text: string; sender: string; threadId: string | null }[] }>(
      ['read', '--limit', '500'],
      { cwd: w.repo.path, env: w.env },
    )
  ).messages

describe('the dashboard in Chromium', { timeout: 240_000 }, () => {
  before(async () => {
    w = await makeWorld()
  })
  after(async () => {
    await w?.browser.close()
    await w?.ui[Symbol.asyncDispose]()
    await w?.repo[Symbol.asyncDispose]()
    await w?.home[Symbol.asyncDispose]()
  })

  test('Now shows every agent with state, vendor and worktree, what waits on a human first, the latest messages', async () => {
    const page = await open('now')
    const actors = page.getByTestId('actors')
    const claude = actors.locator('tr', { hasText: '@claude-lane-one' })
    await claude.waitFor()
    assert.match(await claude.innerText(), /online[\s\S]*claude[\s\S]*lane-one/)
    assert.match(
      await actors.locator('tr', { hasText: '@codex-lane-two' }).innerText(),
      /idle[\s\S]*codex[\s\S]*lane-two/,
    )
    assert.match(
      await page.getByTestId('waiting').innerText(),
      /Need a decision on the schema[\s\S]*two lanes disagree/,
    )
    assert.match(await page.getByTestId('messages').innerText(), /who owns the projection\?/)
    await shoot(page, 'now')
    await page.close()
  })

  test('Board shows the derived columns: the human-loop thread blocked, the thread with an active agent doing', async () => {
    const page = await open('board')
    await page.getByTestId('column-blocked').getByText('Need a decision on the schema').waitFor()
    await page.getByTestId('column-doing').getByText('Projection rewrite').waitFor()
    // Under the columns, the lanes and the lock as `sangam board` has them.
    const lanes = page.getByTestId('board-lanes')
    assert.match(
      await lanes.getByTestId('lock').innerText(),
      new RegExp(
        `^Integration lock: ravi \\(ravi@x\\.dev\\) holds it since .+, task ${w.taskId}; last sign of life`,
      ),
    )
    assert.equal(await lanes.getByTestId('lock-stale').count(), 0, 'a fresh lock is not stale')
    const rows = lanes.getByTestId('board-lane-rows').locator('tbody tr')
    assert.equal(await rows.count(), 2)
    assert.match(
      await rows.filter({ hasText: 'mira' }).innerText(),
      /mira\s+mira@x\.dev\s+clean\s+codex\s+0\s+—/,
    )
    assert.match(
      await rows.filter({ hasText: 'ravi' }).innerText(),
      new RegExp(`ravi\\s+ravi@x\\.dev\\s+task[^\\n]*\\s+human\\s+\\d+\\s+${w.taskId}\\s+\\S`),
    )
    assert.equal(await page.getByTestId('lanes-error').count(), 0)
    await shoot(page, 'board')

    // Silent for an hour, the lock is stale: the mark and how a human may take it over.
    const age = (ms: number) => {
      const [id] = readdirSync(join(w.home.path, '.sangam', 'projects'))
      const db = openConnection(join(w.home.path, '.sangam', 'projects', id ?? '', 'sangam.db'), {
        timeoutMs: 5000,
      })
      try {
        db.prepare('UPDATE integration_lock SET heartbeat_at = heartbeat_at + ?, since = since + ?').run(
          ms,
          ms,
        )
      } finally {
        db.close()
      }
    }
    age(-3_600_000)
    try {
      await page.reload()
      assert.match(await lanes.getByTestId('lock').innerText(), /holds it since 1 h ago/)
      assert.match(
        await lanes.getByTestId('lock-stale').innerText(),
        /^Stale: .*a human may take it over with sangam sync --takeover --reason "…"\.$/,
      )
      await shoot(page, 'board-stale')
    } finally {
      age(3_600_000)
    }

    // A lane made by the CLI while the page is open appears without a reload.
    const made = await runCli(['lane', 'tess', '--no-agent', '--json'], {
      cwd: w.repo.path,
      env: { ...w.env, SANGAM_USER: 'tess@x.dev' },
    })
    assert.equal(made.code, 0, made.stderr)
    await rows.filter({ hasText: 'tess@x.dev' }).waitFor()
    assert.equal(await rows.count(), 3)
    await page.close()
  })

  test('Timeline shows captured events newest first, searches like sangam search, and opens a turn', async () => {
    const page = await open('timeline')
    const timeline = page.getByTestId('timeline')
    await timeline.getByText('rebuilds only the touched partitions').waitFor()
    const texts = await timeline.locator('.event-text').allInnerTexts()
    const said = texts.findIndex((text) => text.includes('touched partitions'))
    const asked = texts.findIndex((text) => text.includes('make the projection rebuild incremental'))
    assert.ok(said >= 0 && asked > said, `newest first: ${JSON.stringify(texts)}`)
    await shoot(page, 'timeline')

    await page.getByLabel('Search').fill('partitions')
    await page.getByLabel('Search').press('Enter')
    await timeline.locator('mark', { hasText: 'partitions' }).first().waitFor()
    assert.equal(await timeline.locator('li.event').count(), 1)
    await timeline.locator('li.event .event-head').first().click()
    await timeline.locator('.turn').getByText('make the projection rebuild incremental').waitFor()
    await page.close()
  })

  test('Leases shows holder, reason, expiry and fencing token; claim and release from the page', async () => {
    const page = await open('leases')
    const row = page.getByTestId('leases').locator('tr', { hasText: 'src/auth/**' })
    await row.waitFor()
    assert.match(
      await row.innerText(),
      new RegExp(
        `asha@example\\.com[\\s\\S]*rewrite the session store[\\s\\S]*in \\d+ (h|min)[\\s\\S]*#${w.token}`,
      ),
    )
    await page.getByLabel('Paths or globs').fill('docs/**')
    await page.getByLabel('Reason').fill('docs pass')
    await page.getByRole('button', { name: 'Claim', exact: true }).click()
    await page.getByTestId('leases').locator('tr', { hasText: 'docs/**' }).waitFor()
    const held = await runCliJson<{ leases: { pattern: string }[] }>(['leases'], {
      cwd: w.repo.path,
      env: w.env,
    })
    assert.deepEqual(held.leases.map((lease) => lease.pattern).sort(), ['docs/**', 'src/auth/**'])
    await shoot(page, 'leases')
    await page.getByRole('button', { name: 'Release docs/**' }).click()
    await page.getByTestId('leases').locator('tr', { hasText: 'docs/**' }).waitFor({ state: 'detached' })
    await page.close()
  })

  test('Lanes shows which branches merge and which collide with which on which files', async () => {
    const page = await open('lanes')
    const matrix = page.getByTestId('ready-matrix')
    await matrix.waitFor()
    assert.match(
      await matrix.locator('tbody tr', { has: page.locator('th', { hasText: 'h/lane-one' }) }).innerText(),
      /merges, collides/,
    )
    assert.match(
      await matrix.locator('tbody tr', { has: page.locator('th', { hasText: 'h/docs' }) }).innerText(),
      /merges/,
    )
    assert.match(
      await page.getByTestId('collisions').innerText(),
      /h\/lane-one[\s\S]*h\/lane-two[\s\S]*src\/shared\.ts|h\/lane-two[\s\S]*h\/lane-one[\s\S]*src\/shared\.ts/,
    )
    const lanes = page.getByTestId('lanes')
    assert.match(
      await lanes.locator('tr', { hasText: 'ravi' }).innerText(),
      new RegExp(`task[\\s\\S]*${w.taskId}`),
    )
    assert.match(await page.getByTestId('lock').innerText(), /ravi \(ravi@x\.dev\) holds it since/)
    await shoot(page, 'lanes')
    await page.close()
  })

  test('Activity charts the last day: events captured per hour and activity per agent', async () => {
    const page = await open('activity')
    await page.getByTestId('charts').locator('canvas').first().waitFor()
    assert.equal(await page.getByTestId('charts').locator('figure').count(), 2)
    // The two captured transcript events, within the last day.
    assert.match(
      await page.getByTestId('chart-totals').innerText(),
      /Totals: 2 events captured[\s\S]*busiest: claude-lane-one/,
    )
    const perAgent = await page.getByTestId('charts').locator('figure').nth(1).locator('tbody').innerText()
    const counts = perAgent.split('\n').map((line) => Number(line.split('\t').at(-1)))
    assert.equal(
      counts.reduce((a, b) => a + b, 0),
      2,
      "the agent's two events are in its hours",
    )
    await shoot(page, 'activity')
    await page.close()
  })

  test('a message posted from the CLI appears on an open page without a reload', async () => {
    const page = await open('room')
    await page.getByTestId('messages').getByText('who owns the projection?').waitFor()
    const navigations: string[] = []
    page.on('framenavigated', (frame) => navigations.push(frame.url()))
    await runCliJson(['post', 'live from the CLI: the build is green'], { cwd: w.repo.path, env: w.env })
    await page.getByTestId('messages').getByText('live from the CLI: the build is green').waitFor()
    assert.deepEqual(navigations, [], 'the page was not reloaded')
    await page.close()
  })

  test('a mention typed before the targets arrived gets its list when they arrive, without another key', async () => {
    const page = await w.context.newPage()
    // The targets' answer is held until the mention is typed: a page just opened on a slow machine.
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    await page.route(/\/api\/targets/, async (route) => {
      await held
      await route.continue()
    })
    await page.goto(`${w.ui.origin}/#/room`)
    const composer = page.getByLabel('Post to the room')
    await composer.click()
    await composer.pressSequentially('over to @cla')
    assert.equal(await page.getByRole('option', { name: /@claude/ }).count(), 0, 'no list before the targets')
    release()
    await page.getByRole('option', { name: /@claude-lane-one/ }).waitFor()
    await page.close()
  })

  test('a post from the page, with @handle completed from the targets, is what sangam read reads', async () => {
    const page = await open('room')
    const composer = page.getByLabel('Post to the room')
    await composer.click()
    await composer.pressSequentially('looks good @cla')
    await page.getByRole('option', { name: /@claude-lane-one/ }).waitFor()
    await shoot(page, 'room')
    await composer.press('Tab')
    assert.equal(await composer.inputValue(), 'looks good @claude-lane-one ')
    await composer.pressSequentially('ship it')
    await composer.press('Enter')
    await page
      .getByTestId('messages')
      .getByText('looks good @claude-lane-one ship it')
      .waitFor()
      .catch(async (error: Error) => {
        // Seen once in a full CI run, never alone: say what the page held, to tell a post that
        // failed from one that was not shown.
        const stored = (await read()).map((message) => message.text).slice(-3)
        const held = await composer.inputValue()
        const shown = await page.locator('main').innerText()
        throw new Error(
          `${error.message}\ncomposer: ${JSON.stringify(held)}\nstored: ${JSON.stringify(stored)}\npage:\n${shown}`,
        )
      })
    const posted = (await read()).find((message) => message.text === 'looks good @claude-lane-one ship it')
    assert.ok(posted, 'sangam read has the post')
    assert.equal(posted.sender, 'asha@example.com')
    await page.close()
  })

  test("a post that looks like a secret is refused on the page with the CLI's code, and nothing is stored", async () => {
    const page = await open('room')
    const secret = samples.github[0] ?? ''
    await page.getByLabel('Post to the room').fill(`the token is ${secret}`)
    await page.getByRole('button', { name: 'Post' }).click()
    const alert = page.locator('.composer [role="alert"]')
    await alert.waitFor()
    assert.match(await alert.innerText(), /secret \(github-token\)/)
    assert.ok(!(await read()).some((message) => message.text.includes(secret)))
    await page.close()
  })

  test('threads open and close from the page, as thread-open and thread-close would', async () => {
    const page = await open('board')
    await page.getByLabel('Title').fill('Pick the cache size')
    await page.getByRole('button', { name: 'Open thread' }).click()
    await page.getByTestId('threads').getByText('Pick the cache size').waitFor()
    await page.getByRole('button', { name: 'Close thread Pick the cache size' }).click()
    await page.getByTestId('column-done').getByText('Pick the cache size').waitFor()
    const all = await runCliJson<{ threads: { title: string; status: string }[] }>(['threads', '--all'], {
      cwd: w.repo.path,
      env: w.env,
    })
    assert.equal(all.threads.find((thread) => thread.title === 'Pick the cache size')?.status, 'closed')
    await page.close()
  })

  test('the keys move between pages and rows', async () => {
    const page = await open('now')
    await page.keyboard.press('4')
    await page.waitForURL(/#\/timeline$/)
    // A new page moves the focus to its title (for screen readers); the keys act after that.
    await page.locator('#page-title:focus', { hasText: 'Timeline' }).waitFor()
    await page.keyboard.press('/')
    assert.equal(await page.evaluate('document.activeElement?.getAttribute("name")'), 'q')
    await page.keyboard.press('Escape')
    await page.keyboard.press('2')
    await page.waitForURL(/#\/board$/)
    await page.locator('#page-title:focus', { hasText: 'Board' }).waitFor()
    await page.getByTestId('column-blocked').locator('[data-row]').first().waitFor()
    await page.keyboard.press('j')
    assert.equal(await page.evaluate('document.activeElement?.hasAttribute("data-row") ?? false'), true)
    await page.keyboard.press('?')
    await page.getByRole('complementary', { name: 'Keyboard shortcuts' }).waitFor()
    await page.close()
  })

  test('a browser without the token is refused, and so is the page under a foreign host name', async () => {
    const stranger = await w.browser.newContext()
    const page = await stranger.newPage()
    const bare = await page.goto(`${w.ui.origin}/`)
    assert.equal(bare?.status(), 401)
    const api = await page.goto(`${w.ui.origin}/api/now`)
    assert.equal(api?.status(), 401)
    // DNS rebinding: a foreign name resolving to loopback, even with the right token.
    const rebound = await page.goto(
      w.ui.url.replace('127.0.0.1', 'evil.example').replace('localhost', 'evil.example'),
    )
    assert.equal(rebound?.status(), 403)
    await stranger.close()
  })

  test('a write from another origin is refused even though the browser holds the cookie', async () => {
    const attacker = await listen((_, response) => {
      response.writeHead(200, { 'content-type': 'text/html' })
      response.end('<!doctype html><title>elsewhere</title><p>another site</p>')
    })
    try {
      const page = await w.context.newPage()
      await page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`)
      const refused = page.waitForResponse((response) => response.url() === `${w.ui.origin}/api/messages`)
      await page.evaluate(async (target) => {
        // A "simple" request needs no preflight, so it reaches the server: the Origin check must refuse it.
        await fetch(`${target}/api/messages`, {
          method: 'POST',
          mode: 'no-cors',
          credentials: 'include',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify({ text: 'cross-site post' }),
        })
      }, w.ui.origin)
      assert.equal((await refused).status(), 403)
      assert.ok(!(await read()).some((message) => message.text === 'cross-site post'))
      await page.close()
    } finally {
      attacker.close()
    }
  })
})

function listen(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer(handler)
    server.listen(0, '127.0.0.1', () => resolve(server))
  })
}
