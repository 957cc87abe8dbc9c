import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { realpathSync } from 'node:fs'
import { test } from 'node:test'
import { openDatabaseFile } from '../src/project/store/project-database.ts'
import { replaceOverlaps } from '../src/room/store/overlap-table.ts'
import { isolatedEnv, runCli, runCliJson } from './helpers/run-cli.ts'
import { tmpGitRepo } from './helpers/tmp-git-repo.ts'
import { runAgentHook, sessionEvent } from './hooks-agent-run.ts'

/** `rules`, `rules set`, `options` and `option-set` as a user runs them: the compiled CLI. */

interface Rule {
  readonly name: string
  readonly rung: string
  readonly default: string
  readonly decided: boolean
  readonly enforced: boolean
}
interface Option {
  readonly name: string
  readonly value: unknown
  readonly default: unknown
  readonly set: boolean
}

async function world() {
  const repo = tmpGitRepo({ commit: true })
  const env = isolatedEnv(repo.path.replace(/\/repo$/, ''), { SANGAM_USER: 'asha@example.com' })
  const { database } = await runCliJson<{ database: string }>(['init', '--no-mcp'], { cwd: repo.path, env })
  const cli = (args: readonly string[]) => runCli(args, { cwd: repo.path, env })
  const json = <T>(args: readonly string[]) => runCliJson<T>(args, { cwd: repo.path, env })
  const rules = async () => (await json<{ rules: Rule[] }>(['rules'])).rules
  const options = async () => (await json<{ options: Option[] }>(['options'])).options
  return { repo, env, database, cli, json, rules, options }
}

const pick = (rule: Rule | undefined) => rule && [rule.rung, rule.default, rule.decided, rule.enforced]

test('rules lists the catalog; rules set changes one, decided, and lease-collision is leases.auto-lease', async () => {
  const w = await world()
  await using _ = w.repo
  const before = await w.rules()
  assert.deepEqual(
    before.map((rule) => rule.name),
    ['one-actor-per-worktree', 'file-overlap', 'stale-worktrees', 'lease-collision'],
  )
  for (const key of ['name', 'rung', 'default', 'decided', 'enforced'])
    assert.ok(
      before.every((rule) => key in rule),
      key,
    )
  assert.ok(before.every((rule) => !rule.decided))
  const set = await w.json<{ rules: Rule[] }>(['rules', 'set', 'one-actor-per-worktree', 'refuse'])
  assert.deepEqual(pick(set.rules.find((rule) => rule.name === 'one-actor-per-worktree')), [
    'refuse',
    'warn',
    true,
    true,
  ])
  await w.json(['rules', 'set', 'lease-collision', 'warn'])
  const leases = (await w.options()).find((option) => option.name === 'leases.auto-lease')
  assert.deepEqual([leases?.value, leases?.set], ['warn', true])
  const text = await w.cli(['rules'])
  assert.equal(text.code, 0, text.stderr)
  assert.match(text.stdout, /one-actor-per-worktree\s+refuse\s+set \(default warn\), enforced/)
})

test('an unknown rule, an unknown rung or a malformed rules line is INVALID_INPUT and changes nothing', async () => {
  const w = await world()
  await using _ = w.repo
  const before = await w.options()
  for (const [args, why] of [
    [
      ['rules', 'set', 'one-agent', 'refuse'],
      /there is no rule "one-agent"; the rules are one-actor-per-worktree, file-overlap, stale-worktrees, lease-collision/,
    ],
    [['rules', 'set', 'file-overlap', 'loud'], /one of off, advise, warn, refuse; got "loud"/],
    [['rules', 'set', 'file-overlap'], /set <rule> <rung>/],
    [['rules', 'unset', 'file-overlap', 'off'], /set <rule> <rung>/],
  ] as const) {
    const run = await w.cli([...args, '--json'])
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`)
    assert.match(run.stderr, why)
  }
  assert.deepEqual(await w.options(), before)
})

test('options lists every group; option-set sets one by its full name, and refuses bad values', async () => {
  const w = await world()
  await using _ = w.repo
  const names = (await w.options()).map((option) => option.name)
  for (const name of ['leases.auto-lease', 'sync.share-tool-output', 'room.file-overlap', 'room.stale-days'])
    assert.ok(names.includes(name), name)
  const { option } = await w.json<{ option: Option }>(['option-set', 'room.stale-days', '14'])
  assert.deepEqual([option.name, option.value, option.default, option.set], ['room.stale-days', 14, 30, true])
  const before = await w.options()
  for (const [args, why] of [
    [['option-set', 'room.stale-days', 'soon'], /room\.stale-days is not a positive integer/],
    [
      ['option-set', 'room.stale', '3'],
      /there is no project option "room\.stale"; did you mean room\.stale-days or room\.stale-worktrees\? The options are/,
    ],
    [['option-set', 'room.file-overlap', 'loud'], /room\.file-overlap is one of off, advise, warn, refuse/],
  ] as const) {
    const run = await w.cli([...args, '--json'])
    assert.equal(run.code, 2, run.stderr)
    assert.match(run.stderr, why)
  }
  assert.deepEqual(await w.options(), before)
  assert.equal((await w.rules()).find((rule) => rule.name === 'stale-worktrees')?.decided, false)
})

interface AlertJson {
  readonly id: string
  readonly type: string
  readonly severity: string
  readonly title: string
  readonly participants: readonly string[]
  readonly paths: readonly string[]
  readonly threadId: string | null
}

test('alerts lists what the rules see and what waits on someone, with stable ids and rung severities', async () => {
  const w = await world()
  await using _ = w.repo
  const alerts = async () => (await w.json<{ alerts: AlertJson[] }>(['alerts'])).alerts
  const commitAt = (date: string) =>
    spawnSync(
      'git',
      ['-c', 'user.email=a@b', '-c', 'user.name=A', 'commit', '-q', '--allow-empty', '-m', date],
      {
        cwd: w.repo.path,
        env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
      },
    )
  commitAt(new Date().toISOString())
  assert.deepEqual(await alerts(), [])

  // A worktree whose last commit is old, with nobody in it: stale.
  commitAt('2020-01-01T00:00:00Z')
  const stale = await alerts()
  assert.deepEqual(
    stale.map((alert) => [alert.type, alert.severity]),
    [['stale-worktrees', 'warning']],
  )
  assert.deepEqual(Object.keys(stale[0] ?? {}), [
    'id',
    'type',
    'severity',
    'title',
    'participants',
    'paths',
    'threadId',
  ])

  // Two agents arrive in the worktree (their SessionStart hooks), and the daemon's overlap picture has a row.
  for (const [host, session] of [
    ['claude', 'c1a0de00-0000-4000-8000-000000000001'],
    ['codex', '01a2264c-aff5-7b22-ace8-554acdb41e6a'],
  ] as const) {
    const run = await runAgentHook(host, sessionEvent(w.repo.path, 'SessionStart', session), {
      cwd: w.repo.path,
      env: w.env,
    })
    assert.equal(run.code, 0, run.stderr)
  }
  const db = openDatabaseFile(w.database)
  try {
    const worktree = realpathSync(w.repo.path)
    db.transaction(() =>
      replaceOverlaps(db, [
        {
          worktree,
          path: 'src/a.ts',
          otherWorktree: '/elsewhere/lane',
          otherBranch: 'lane',
          conflicted: true,
          computedAt: 1,
        },
      ]),
    )()
  } finally {
    db.close()
  }
  await w.json(['thread-open', '--title', 'which schema?', '--audience', 'human-loop'])
  const busy = await alerts()
  assert.deepEqual(
    busy.map((alert) => [alert.type, alert.severity]),
    [
      ['decision-needed', 'attention'],
      ['file-overlap', 'attention'],
      ['one-actor-per-worktree', 'attention'],
    ],
  )
  const shared = busy.find((alert) => alert.type === 'one-actor-per-worktree')
  assert.deepEqual(shared?.participants, ['#repo', '@claude-repo', '@codex-repo'])
  assert.deepEqual(busy.find((alert) => alert.type === 'file-overlap')?.paths, ['src/a.ts'])
  // The agents are active now, so the worktree is no longer stale.

  // Same conditions, same ids; a louder rung makes the alert critical, off removes it.
  assert.deepEqual(
    (await alerts()).map((alert) => alert.id),
    busy.map((alert) => alert.id),
  )
  await w.json(['rules', 'set', 'file-overlap', 'refuse'])
  await w.json(['rules', 'set', 'one-actor-per-worktree', 'off'])
  const louder = await alerts()
  assert.equal(louder.find((alert) => alert.type === 'file-overlap')?.severity, 'critical')
  assert.equal(
    louder.find((alert) => alert.type === 'file-overlap')?.id,
    busy.find((alert) => alert.type === 'file-overlap')?.id,
  )
  assert.equal(
    louder.some((alert) => alert.type === 'one-actor-per-worktree'),
    false,
  )
  const text = await w.cli(['alerts'])
  assert.match(
    text.stdout,
    /^critical\s+file-overlap: #lane and #repo both change 1 path and would conflict — src\/a\.ts$/m,
  )
})
