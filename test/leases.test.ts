import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { ClaimResult, Lease, LeaseLogEntry, LeaseSettings } from '../src/leases/protocol/lease.ts'
import { isolatedEnv, runCli, runCliJson } from './helpers/run-cli.ts'
import { tmpDir, tmpGitRepo, tmpRepoWith } from './helpers/tmp-git-repo.ts'
import { claudeEdit, runAgentHook } from './hooks-agent-run.ts'

interface Overview {
  leases: Lease[]
  history: LeaseLogEntry[]
  settings: LeaseSettings
}

test('a claim is granted once; an overlapping claim exits 5 naming holder, reason and expiry', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  mkdirSync(join(repo.path, 'src/auth'), { recursive: true })
  const alice = isolatedEnv(home.path, { SANGAM_USER: 'alice@x.dev' })
  const bob = isolatedEnv(home.path, { SANGAM_USER: 'bob@x.dev' })

  const granted = await runCliJson<ClaimResult>(
    ['claim', 'src/auth', '--reason', 'rewrite auth', '--ttl', '90m'],
    {
      cwd: repo.path,
      env: alice,
    },
  )
  assert.ok(granted.granted)
  assert.equal(granted.leases[0]?.pattern, 'src/auth/**', 'a directory means everything below it')

  const refused = await runCli(['claim', 'auth/login.ts', '-r', 'fix redirect'], {
    cwd: join(repo.path, 'src'),
    env: bob,
  })
  assert.equal(refused.code, 5)
  assert.match(
    refused.stdout,
    /src\/auth\/login\.ts is held: src\/auth\/\*\* — alice@x\.dev, until (?:\d{4}-\d\d-\d\d )?\d\d:\d\d UTC \(in 1 h (?:29|30) min\): "rewrite auth"/,
  )

  const json = await runCli(['claim', 'src/auth/login.ts', '-r', 'fix', '--json'], {
    cwd: repo.path,
    env: bob,
  })
  assert.equal(json.code, 5)
  const body = JSON.parse(json.stdout) as ClaimResult & { code: string }
  assert.ok(!body.granted)
  assert.equal(body.code, 'LEASE_CONFLICT')
  assert.equal(body.conflicts[0]?.lease.holder.human, 'alice@x.dev')
})

test('who-has resolves paths from the cwd and through .., and says when nothing holds a file', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = isolatedEnv(home.path, { SANGAM_USER: 'alice@x.dev' })
  await runCliJson(['claim', 'src/**', '-r', 'refactor'], { cwd: repo.path, env })
  mkdirSync(join(repo.path, 'src'))
  const fromSub = await runCliJson<{ path: string; leases: Lease[] }>(['who-has', 'a/b.ts'], {
    cwd: join(repo.path, 'src'),
    env,
  })
  assert.deepEqual([fromSub.path, fromSub.leases.length], ['src/a/b.ts', 1])
  const held = await runCliJson<{ path: string; leases: Lease[] }>(['who-has', 'lib/../src/a/b.ts'], {
    cwd: repo.path,
    env,
  })
  assert.equal(held.path, 'src/a/b.ts')
  assert.deepEqual(
    held.leases.map((lease) => lease.pattern),
    ['src/**'],
  )
  const free = await runCli(['who-has', 'docs/readme.md'], { cwd: repo.path, env })
  assert.equal(free.code, 0)
  assert.match(free.stdout, /nobody holds docs\/readme\.md/)
  const outside = await runCliJson<{ path: null; leases: Lease[] }>(['who-has', '/etc/hosts'], {
    cwd: repo.path,
    env,
  })
  assert.deepEqual([outside.path, outside.leases], [null, []])
})

test('only the holder releases; a forced release needs a reason and is shown to the team', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const alice = isolatedEnv(home.path, { SANGAM_USER: 'alice@x.dev' })
  const bob = isolatedEnv(home.path, { SANGAM_USER: 'bob@x.dev' })
  await runCliJson(['claim', 'docs/**', '-r', 'docs pass'], { cwd: repo.path, env: alice })

  const notHolder = await runCli(['release', 'docs/'], { cwd: repo.path, env: bob })
  assert.equal(notHolder.code, 5)
  assert.match(notHolder.stderr, /held by alice@x\.dev, not by you.*--force --reason/)
  const noReason = await runCli(['release', 'docs/', '--force'], { cwd: repo.path, env: bob })
  assert.equal(noReason.code, 2)
  const nothing = await runCli(['release', 'lib/**'], { cwd: repo.path, env: bob })
  assert.equal(nothing.code, 4)

  const forced = await runCliJson<{ forced: Lease[] }>(
    ['release', 'docs/', '--force', '-r', 'alice is away'],
    {
      cwd: repo.path,
      env: bob,
    },
  )
  assert.equal(forced.forced[0]?.holder.human, 'alice@x.dev')
  const overview = await runCliJson<Overview>(['leases'], { cwd: repo.path, env: alice })
  assert.deepEqual(overview.leases, [])
  assert.deepEqual(
    overview.history.map((entry) => [entry.action, entry.pattern, entry.by.human, entry.reason]),
    [['force-released', 'docs/**', 'bob@x.dev', 'alice is away']],
  )
  const text = await runCli(['leases'], { cwd: repo.path, env: alice })
  assert.match(text.stdout, /bob@x\.dev force-released docs\/\*\* held by alice@x\.dev: "alice is away"/)
})

test("an agent's claim holds for its session: the same human's other agent is kept out, the human too", async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const human = { SANGAM_USER: 'alice@x.dev' }
  const claude = isolatedEnv(home.path, { ...human, CLAUDE_CODE_SESSION_ID: 'c-1' })
  const codex = isolatedEnv(home.path, { ...human, CODEX_THREAD_ID: 'x-1' })
  const claimed = await runCliJson<ClaimResult>(['claim', 'src/a.ts', '-r', 'bugfix'], {
    cwd: repo.path,
    env: claude,
  })
  assert.ok(claimed.granted)
  assert.deepEqual(claimed.leases[0]?.holder, { human: 'alice@x.dev', vendor: 'claude', sessionId: 'c-1' })
  assert.equal((await runCli(['claim', 'src/a.ts', '-r', 'x'], { cwd: repo.path, env: codex })).code, 5)
  assert.equal(
    (await runCli(['claim', 'src/a.ts', '-r', 'x'], { cwd: repo.path, env: isolatedEnv(home.path, human) }))
      .code,
    5,
  )

  const again = await runCliJson<ClaimResult>(['claim', 'SRC/A.ts', '-r', 'still on it'], {
    cwd: repo.path,
    env: claude,
  })
  assert.ok(again.granted && again.leases[0]?.renewed)
  const overview = await runCliJson<Overview>(['leases'], { cwd: repo.path, env: claude })
  assert.equal(overview.leases.length, 1, 'renewal keeps one lease per holder and pattern')
  assert.equal(overview.leases[0]?.reason, 'still on it')
})

test('lease settings change through leases flags, and bad values are usage errors', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = isolatedEnv(home.path)
  const changed = await runCliJson<Overview>(
    ['leases', '--auto-lease', 'warn', '--session-end', 'keep', '--claim-ttl', '4h'],
    {
      cwd: repo.path,
      env,
    },
  )
  assert.deepEqual(changed.settings, {
    autoLease: 'warn',
    autoLeaseTtlMs: 600_000,
    claimTtlMs: 14_400_000,
    releaseOnSessionEnd: false,
  })
  assert.equal((await runCli(['leases', '--auto-lease', 'loud'], { cwd: repo.path, env })).code, 2)
  assert.equal((await runCli(['claim', 'src/**'], { cwd: repo.path, env })).code, 2, 'a claim needs a reason')
  assert.equal((await runCli(['claim', '../x', '-r', 'r'], { cwd: repo.path, env })).code, 2)
})

test("a human's claim takes over the auto-lease of their own agent, and the team sees the takeover", async () => {
  await using home = tmpDir()
  await using repo = tmpRepoWith({ 'src/a.ts': 'export const a = 1\n' })
  const alice = isolatedEnv(home.path, { SANGAM_USER: 'alice@x.dev' })
  await runCliJson(['init', '--no-mcp'], { cwd: repo.path, env: alice })
  const session = 'c1a0de00-0000-4000-8000-0000000000aa'
  const edit = await runAgentHook('claude', claudeEdit(repo.path, join(repo.path, 'src', 'a.ts'), session), {
    cwd: repo.path,
    env: alice,
  })
  assert.equal(edit.code, 0, edit.stderr)

  const claim = await runCli(['claim', 'src/a.ts', '-r', 'finishing it myself'], {
    cwd: repo.path,
    env: alice,
  })
  assert.equal(claim.code, 0, `not "held by your claude session": ${claim.stdout}${claim.stderr}`)
  assert.match(
    claim.stdout,
    /took over alice@x\.dev's claude session c1a0de00's auto-lease on src\/a\.ts; it has ended/,
  )
  const overview = await runCliJson<Overview>(['leases'], { cwd: repo.path, env: alice })
  assert.deepEqual(
    overview.leases.map((lease) => [lease.pattern, lease.kind, lease.holder.vendor]),
    [['src/a.ts', 'claim', null]],
  )
  assert.deepEqual(
    overview.history.map((entry) => [entry.action, entry.holder.sessionId, entry.by.human, entry.reason]),
    [['taken-over', session, 'alice@x.dev', 'finishing it myself']],
  )
  const bob = isolatedEnv(home.path, { SANGAM_USER: 'bob@x.dev' })
  assert.equal((await runCli(['claim', 'src/a.ts', '-r', 'x'], { cwd: repo.path, env: bob })).code, 5)
})

test('a claim of nothing or of an unbalanced glob is refused naming what is wrong with it', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = isolatedEnv(home.path, { SANGAM_USER: 'alice@x.dev' })
  const empty = await runCli(['claim', '', '-r', 'r'], { cwd: repo.path, env })
  assert.equal(empty.code, 2)
  assert.match(empty.stderr, /"" is not a usable lease pattern: it is empty/)
  assert.doesNotMatch(empty.stderr, /outside this project/)
  const whoHasEmpty = await runCli(['who-has', '  '], { cwd: repo.path, env })
  assert.match(whoHasEmpty.stderr, /it is empty/)

  const unbalanced = await runCli(['claim', 'src/[a', '-r', 'r', '--json'], { cwd: repo.path, env })
  assert.equal(unbalanced.code, 2)
  const body = JSON.parse(unbalanced.stdout) as { error: { code: string; message: string } }
  assert.equal(body.error.code, 'INVALID_INPUT')
  assert.match(body.error.message, /"src\/\[a" is not a usable lease pattern: its "\[" has no partner/)
  assert.deepEqual((await runCliJson<Overview>(['leases'], { cwd: repo.path, env })).leases, [])
  const literal = await runCliJson<ClaimResult>(['claim', 'src/[[]a', '-r', 'r'], { cwd: repo.path, env })
  assert.ok(literal.granted, 'a bracket escaped in a class of its own is a literal file name')
})
