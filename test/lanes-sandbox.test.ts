import assert from 'node:assert/strict'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { laneProject } from './helpers/lane-fixture.ts'
import { tmuxMissing, tmuxServer } from './helpers/tmux-server.ts'

interface Entered {
  readonly lane: { readonly worktree: string }
  readonly agent: { readonly started: boolean; readonly pane?: string; readonly command: string } | null
  readonly warnings: readonly string[]
}

function codexConfig(home: string, text: string): void {
  mkdirSync(join(home, '.codex'), { recursive: true })
  writeFileSync(join(home, '.codex', 'config.toml'), text)
}

test('D225: lane --agent codex warns when Codex resumes turns sandboxed, and says what to do', async () => {
  await using p = await laneProject()
  const codexFile = join(p.home.path, '.codex', 'config.toml')

  const bare = await p.json<Entered>(['lane', 'alice', '--agent', 'codex'], { code: 0 })
  assert.equal(bare.warnings.length, 1, 'no config.toml: Codex runs read-only')
  assert.match(
    bare.warnings[0] ?? '',
    /no sandbox_mode in .*\.codex\/config\.toml \(Codex's default: read-only\)/,
  )
  assert.ok(bare.warnings[0]?.includes(`set sandbox_mode = "danger-full-access" in ${codexFile}`))
  // The narrowest setting first: this lane's own project config, not every Codex session (D306).
  const laneFile = join(p.repo.path, '.sangam', 'lanes', 'alice', '.codex', 'config.toml')
  assert.ok(
    bare.warnings[0]?.startsWith(
      `this lane's Codex cannot commit a semantic task: it resumes turns under no sandbox_mode in ${codexFile} (Codex's default: read-only)`,
    ),
  )
  assert.ok(
    bare.warnings[0]?.includes(`for this lane alone, put sandbox_mode = "danger-full-access" in ${laneFile}`),
  )

  codexConfig(p.home.path, '# lanes\nmodel = "gpt-5.5"\nsandbox_mode = "workspace-write"  # keep edits in\n')
  const text = await p.cli(['lane', 'alice'])
  assert.equal(text.code, 0)
  assert.match(
    text.stderr,
    /^warning: this lane's Codex cannot commit a semantic task: .*sandbox_mode = "workspace-write"/m,
  )
  assert.match(text.stderr, /run each task by hand/)
  assert.doesNotMatch(text.stdout, /warning/, 'stdout keeps the result alone')

  codexConfig(
    p.home.path,
    'sandbox_mode = "danger-full-access"\n[sandbox_workspace_write]\nnetwork_access = true\n',
  )
  const full = await p.json<Entered>(['lane', 'alice'], { code: 0 })
  assert.deepEqual(full.warnings, [], 'danger-full-access can commit: nothing to say')
  assert.equal((await p.cli(['lane', 'alice'])).stderr, '')

  codexConfig(p.home.path, 'sandbox_mode = "danger-full-access\n')
  const broken = await p.json<Entered>(['lane', 'alice'], { code: 0 })
  assert.match(
    broken.warnings[0] ?? '',
    /config\.toml is not valid TOML/,
    'an unreadable config is said, not guessed',
  )

  codexConfig(p.home.path, 'sandbox_mode = "read-only"\n')
  const claude = await p.json<Entered>(['lane', 'bob', '--agent', 'claude'], { code: 0 })
  assert.deepEqual(claude.warnings, [], "Claude Code's lane is not judged by Codex's config")
  const human = await p.json<Entered>(['lane', 'carol', '--no-agent'], { code: 0 })
  assert.deepEqual(human.warnings, [])
})

test('D225: sync repeats the warning when it hands a task to a Codex lane that cannot commit it', {
  skip: tmuxMissing(),
}, async () => {
  await using p = await laneProject()
  await using tmux = tmuxServer()
  const { env } = tmux
  // A stand-in named codex: the pane only has to hold the pasted task.
  const bin = join(tmux.dir.path, 'bin')
  mkdirSync(bin)
  writeFileSync(join(bin, 'codex'), '#!/bin/sh\nexec cat\n')
  chmodSync(join(bin, 'codex'), 0o755)
  codexConfig(p.home.path, 'profile = "lanes"\n[profiles.lanes]\nsandbox_mode = "workspace-write"\n')
  const alice = await p.lane('alice')
  const entered = await p.json<Entered>(['lane', 'bob', '--agent', join(bin, 'codex')], { code: 0, env })
  assert.equal(entered.agent?.started, true)
  assert.match(entered.warnings[0] ?? '', /sandbox_mode = "workspace-write" \(.*\[profiles\.lanes\]\)/)
  const bob = entered.lane.worktree

  p.write(alice, 'src/app.js', 'alice\n')
  const published = await p.json<{ outcome: string; warnings: string[] }>(['sync'], { cwd: alice, code: 0 })
  assert.equal(published.outcome, 'published-direct')
  assert.deepEqual(published.warnings, [], "a human's lane has no Codex to warn about")

  p.write(bob, 'src/app.js', 'bob\n')
  const started = await p.cli(['sync'], { cwd: bob, env })
  assert.equal(started.code, 0, started.stderr)
  assert.match(started.stdout, /started a semantic merge task/)
  assert.match(
    started.stderr,
    /^warning: this lane's Codex cannot commit a semantic task: .*workspace-write/m,
  )
  await p.checkInvariants()
})
