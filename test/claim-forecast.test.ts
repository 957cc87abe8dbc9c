import assert from 'node:assert/strict'
import { utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { openDatabaseFile } from '../src/project/store/project-database.ts'
import { writeWorktreeState } from '../src/room/store/worktree-state-table.ts'
import { gitCallLog } from './helpers/git-call-log.ts'
import { laneProject } from './helpers/lane-fixture.ts'
import { connectMcp } from './helpers/mcp-client.ts'
import { isolatedEnv, runCli, runCliJson } from './helpers/run-cli.ts'
import { git, tmpDir, tmpRepoWith } from './helpers/tmp-git-repo.ts'
import { eventually, startUp } from './helpers/up-process.ts'

/**
 * The collision forecast at claim time: `claim` names the other worktrees whose work (committed
 * on their branch, or uncommitted) already touches what it claims, before anyone writes.
 */
interface ForecastJson {
  granted: boolean
  states: { source: 'git' | 'daemon'; at: number | null; ageMs: number }
  forecast: {
    worktree: string
    machine: string | null
    branch: string | null
    lane: string | null
    paths: string[]
    pathCount: number
  }[]
}

async function project() {
  const home = tmpDir()
  const repo = tmpRepoWith({
    'src/a.ts': 'export const a = 1\n',
    'src/c.ts': 'export const c = 1\n',
    'docs/guide.md': '# guide\n',
  })
  const env = isolatedEnv(home.path, { SANGAM_USER: 'dev@example.com' })
  const init = await runCliJson<{ database: string }>(['init', '--no-mcp'], { cwd: repo.path, env })
  const committed = join(home.path, 'lane-b')
  git(repo.path, 'worktree', 'add', '-q', '-b', 'lane/b', committed, 'main')
  const edit = (worktree: string, file: string, text: string) => writeFileSync(join(worktree, file), text)
  edit(committed, 'src/a.ts', 'export const a = 2\n')
  git(committed, 'commit', '-q', '-am', 'b changes a')
  const dirty = join(home.path, 'lane-c')
  git(repo.path, 'worktree', 'add', '-q', '-b', 'lane/c', dirty, 'main')
  edit(dirty, 'src/c.ts', 'export const c = 2\n')
  // Stamped a minute ago: a file changed just before its worktree is read is not kept (racy, D422).
  const minuteAgo = Date.now() / 1000 - 60
  utimesSync(join(dirty, 'src/c.ts'), minuteAgo, minuteAgo)
  return {
    home,
    repo,
    env,
    committed,
    dirty,
    database: init.database,
    claim: (cwd: string, ...args: string[]) =>
      runCliJson<ForecastJson>(['claim', ...args, '--reason', 'refactor'], { cwd, env }),
    async [Symbol.asyncDispose]() {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
}

test('a claim names the lanes whose committed or uncommitted work already touches the claimed paths', async () => {
  await using p = await project()
  const out = await p.claim(p.repo.path, 'src/')
  assert.equal(out.granted, true)
  const byWorktree = new Map(out.forecast.map((entry) => [entry.worktree, entry]))
  assert.deepEqual(byWorktree.get(p.committed)?.paths, ['src/a.ts'])
  assert.equal(byWorktree.get(p.committed)?.branch, 'lane/b')
  assert.deepEqual(byWorktree.get(p.dirty)?.paths, ['src/c.ts'])
  assert.equal(byWorktree.get(p.dirty)?.machine, null)
  const text = await runCli(['claim', 'src/a.ts', '--reason', 'again'], { cwd: p.repo.path, env: p.env })
  assert.match(text.stdout, /Already changed elsewhere \(committed or not\)/)
  assert.match(text.stdout, /lane\/b \(.*lane-b\): src\/a\.ts/)
  assert.doesNotMatch(text.stdout, /src\/c\.ts/)
})

test('paths no one else touches forecast nothing, and the claimer’s own worktree is never named', async () => {
  await using p = await project()
  assert.deepEqual((await p.claim(p.repo.path, 'docs/')).forecast, [])
  const own = await p.claim(p.committed, 'src/a.ts')
  assert.deepEqual(own.forecast, [])
})

test('another machine’s shared worktree state is named with its machine', async () => {
  await using p = await project()
  const db = openDatabaseFile(p.database)
  try {
    writeWorktreeState(db, {
      machine: 'm_0123456789abcdef',
      path: '/home/bob/widget',
      status: 'present',
      target: null,
      branch: 'lane/bob',
      head: 'a'.repeat(40),
      base: 'b'.repeat(40),
      lastCommitAt: 0,
      uncommitted: 1,
      changes: [{ path: 'docs/guide.md', ranges: [[1, 1]] }],
      truncated: false,
      updatedAt: 0,
      change: 1,
      digest: 'd',
    })
  } finally {
    db.close()
  }
  const out = await p.claim(p.repo.path, 'docs/guide.md')
  assert.deepEqual(
    out.forecast.map((entry) => [entry.machine, entry.worktree, entry.paths]),
    [['m_0123456789abcdef', '/home/bob/widget', ['docs/guide.md']]],
  )
})

test('real lanes: committed work not in main and untracked files are named with their lane; work main already holds and a lane only behind main are not', async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  const bob = await p.lane('bob')
  const carol = await p.lane('carol')
  const dave = await p.lane('dave')
  // carol's work is published: main holds it, so it is no one's pending work.
  p.write(carol, 'src/carol.js', 'export const carol = 1\n')
  assert.equal(
    (await p.json<{ outcome: string }>(['sync'], { cwd: carol, code: 0 })).outcome,
    'published-direct',
  )
  // alice committed in her lane, not in main; bob has an untracked new file, never added.
  p.write(alice, 'src/app.js', 'export function greet() {\n  return "hello, alice"\n}\n')
  p.commit(alice, 'alice greets')
  p.write(bob, 'src/bob.js', 'export const bob = 1\n')
  // dave touched nothing: he is only behind main (which changed src/carol.js).
  const expected = [
    ['alice', alice, ['src/app.js']],
    ['bob', bob, ['src/bob.js']],
  ]
  const shape = (out: ForecastJson) =>
    out.forecast
      .map((entry) => [entry.lane, entry.worktree, entry.paths])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])))
  const fromMain = await p.json<ForecastJson>(['claim', 'src/', '--reason', 'refactor'], { code: 0 })
  assert.deepEqual(shape(fromMain), expected)
  assert.match(
    (await p.cli(['claim', 'src/', '--reason', 'again'])).stdout,
    /lane alice \(.*alice\): src\/app\.js\n {2}lane bob \(.*bob\): src\/bob\.js/,
  )

  // ctx_claim from inside dave's lane: the same lanes, and never dave's own.
  await using mcp = await connectMcp(dave, isolatedEnv(p.home.path, { SANGAM_USER: 'dave@x.dev' }))
  const claimed = await mcp.call('ctx_claim', { patterns: ['src/'], reason: 'refactor' })
  assert.notEqual(claimed.isError, true, JSON.stringify(claimed.content))
  assert.deepEqual(shape(claimed.structuredContent as unknown as ForecastJson), expected)
})

/** The git subcommands a run called (the first argument that is not an option). */
function subcommands(calls: readonly (readonly string[])[]): string[] {
  return calls.map((call) => call.find((arg) => !arg.startsWith('-')) ?? '')
}

test('without a daemon a claim asks git one status per other worktree; what it read once is kept', async () => {
  await using p = await project()
  const log = gitCallLog(p.home.path)
  const claim = () =>
    runCliJson<ForecastJson>(['claim', 'src/', '--reason', 'refactor'], {
      cwd: p.repo.path,
      env: log.env(p.env),
    })
  const first = await claim()
  assert.equal(first.states.source, 'git')
  const firstCalls = subcommands(log.calls())
  assert.equal(firstCalls.filter((name) => name === 'status').length, 2, firstCalls.join(' '))
  // HEADs and branches come from files.
  assert.deepEqual(
    log.calls().filter((call) => call.includes('HEAD') || call.includes('symbolic-ref')),
    [],
  )
  log.reset()
  const again = await claim()
  assert.deepEqual(subcommands(log.calls()), ['status', 'status'], 'the dirty state and both diffs are kept')
  const shape = (out: ForecastJson) =>
    out.forecast.map((entry) => [entry.worktree, entry.branch, entry.paths])
  assert.deepEqual(shape(again), shape(first))
  assert.deepEqual(
    shape(first).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    [
      [p.committed, 'lane/b', ['src/a.ts']],
      [p.dirty, 'lane/c', ['src/c.ts']],
    ],
  )
})

test('with sangam up running a claim’s forecast takes its round’s worktree states, said with their age', async () => {
  await using p = await project()
  await using up = startUp([], { cwd: p.repo.path, env: p.env })
  await up.waitFor('started')
  await eventually(
    async () => (await p.claim(p.repo.path, 'docs/')).states.source === 'daemon',
    30_000,
    'a daemon round',
  )
  const log = gitCallLog(p.home.path)
  const out = await runCliJson<ForecastJson>(['claim', 'src/', '--reason', 'refactor'], {
    cwd: p.repo.path,
    env: log.env(p.env),
  })
  assert.deepEqual(subcommands(log.calls()), [], 'no git at all')
  assert.equal(out.states.source, 'daemon')
  assert.ok(out.states.ageMs >= 0)
  assert.deepEqual(
    out.forecast
      .map((entry) => [entry.worktree, entry.machine, entry.paths])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    [
      [p.committed, null, ['src/a.ts']],
      [p.dirty, null, ['src/c.ts']],
    ],
  )
  const text = await runCli(['claim', 'src/a.ts', '--reason', 'again'], { cwd: p.repo.path, env: p.env })
  assert.match(
    text.stdout,
    /lane\/b \(.*lane-b\): src\/a\.ts\n {2}\(this machine's worktrees as sangam up's round read them \d+ s ago\)/,
  )
})
