import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { installedElsewhere, isolatedEnv, projectRoot, runCli, runCliJson } from './helpers/run-cli.ts'
import { git, tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'
import { installFakeCodex } from './hooks-fake-codex.ts'

/**
 * `sangam install-hooks` against real files and a real git repository; Codex is the stand-in of
 * hooks-fake-codex.ts (the real Codex is exercised by `npm run test:agents`).
 */
interface InstallJson {
  action: 'install'
  claude: { level: string; file: string; change: string }
  codex: {
    level: string
    levelNote: string | null
    file: string
    change: string
    trust: { status: string; recorded: string[]; configFile: string; note: string | null }
  }
  git: { file: string; change: string; chained: string | null }
}

interface UninstallJson {
  action: 'uninstall'
  claude: { file: string; change: string }
  codex: { file: string; change: string; trustRemoved: string[] }
  git: { file: string; change: string; chained: string | null }
  remaining: string[]
}

function envFor(home: string): Record<string, string | undefined> {
  const bin = installFakeCodex(home)
  return isolatedEnv(home, { PATH: `${bin}:${process.env.PATH}` })
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'))

test('a fresh install adds the Claude, Codex and pre-push hooks and trusts the Codex ones', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = envFor(home.path)
  const out = await runCliJson<InstallJson>(['install-hooks'], { cwd: repo.path, env })
  assert.equal(out.claude.file, join(repo.path, '.claude', 'settings.json'))
  assert.equal(out.claude.change, 'added')
  const settings = readJson(out.claude.file) as {
    hooks: Record<string, { matcher?: string; hooks: { command: string; args: string[] }[] }[]>
  }
  assert.deepEqual(Object.keys(settings.hooks), [
    'SessionStart',
    'PreToolUse',
    'UserPromptSubmit',
    'Stop',
    'SessionEnd',
  ])
  assert.equal(settings.hooks.PreToolUse?.[0]?.matcher, 'Edit|Write|MultiEdit|NotebookEdit')
  const handler = settings.hooks.PreToolUse?.[0]?.hooks[0]
  assert.equal(handler?.command, 'node')
  assert.deepEqual(handler?.args, [join(projectRoot, 'dist', 'hooks', 'agent-hook-main.cjs'), 'claude'])
  // Beside the Stop hook, Claude Code's wake waiter: in the background, waking the model on exit 2.
  assert.deepEqual(settings.hooks.Stop?.[0]?.hooks[1], {
    type: 'command',
    command: 'node',
    args: [join(projectRoot, 'dist', 'hooks', 'claude-wake-main.cjs')],
    timeout: 7 * 24 * 60 * 60,
    asyncRewake: true,
  })

  // The stand-in, like Codex, does not load an untrusted project's .codex/: the hooks go to the user.
  assert.equal(out.codex.level, 'user')
  assert.match(out.codex.levelNote ?? '', /does not trust the project/)
  assert.equal(out.codex.file, join(home.path, '.codex', 'hooks.json'))
  assert.equal(out.codex.trust.status, 'trusted')
  assert.equal(
    out.codex.trust.recorded.length,
    5,
    'SessionStart, UserPromptSubmit, PreToolUse, Stop, SessionEnd',
  )
  const config = readFileSync(join(home.path, '.codex', 'config.toml'), 'utf8')
  for (const key of out.codex.trust.recorded)
    assert.ok(config.includes(`[hooks.state.${JSON.stringify(key)}]`))
  // The room's events (presence, and the context UserPromptSubmit carries) for Codex as for Claude.
  const codexHooks = readJson(out.codex.file) as { hooks: Record<string, { hooks: { command: string }[] }[]> }
  for (const event of ['UserPromptSubmit', 'Stop']) {
    assert.match(codexHooks.hooks[event]?.[0]?.hooks[0]?.command ?? '', /agent-hook-main\.cjs codex$/, event)
    assert.ok(
      out.codex.trust.recorded.some((key) =>
        key.includes(event === 'Stop' ? ':stop:' : ':user_prompt_submit:'),
      ),
      `${event} is trusted`,
    )
  }

  assert.equal(out.git.file, join(repo.path, '.git', 'hooks', 'pre-push'))
  assert.match(readFileSync(out.git.file, 'utf8'), /^#!\/bin\/sh\n# sangam pre-push gate/)
})

test('installing twice changes nothing: no duplicate entries, no second trust record', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = envFor(home.path)
  const first = await runCliJson<InstallJson>(['install-hooks'], { cwd: repo.path, env })
  const files = [first.claude.file, first.codex.file, first.codex.trust.configFile, first.git.file]
  const before = files.map((file) => readFileSync(file, 'utf8'))
  const second = await runCliJson<InstallJson>(['install-hooks'], { cwd: repo.path, env })
  assert.deepEqual(
    [second.claude.change, second.codex.change, second.git.change, second.codex.trust.recorded.length],
    ['unchanged', 'unchanged', 'unchanged', 0],
  )
  assert.equal(second.codex.trust.status, 'trusted')
  assert.deepEqual(
    files.map((file) => readFileSync(file, 'utf8')),
    before,
  )
})

test('an install from before the wake waiter gains it in place, and --uninstall takes it out with the rest', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = envFor(home.path)
  const file = join(repo.path, '.claude', 'settings.json')
  const agentHook = join(projectRoot, 'dist', 'hooks', 'agent-hook-main.cjs')
  const mine = { type: 'command', command: 'notify-send done' }
  mkdirSync(join(repo.path, '.claude'))
  // What an older install wrote: our Stop handler alone, after the user's own group.
  writeFileSync(
    file,
    JSON.stringify({
      hooks: {
        Stop: [
          { hooks: [mine] },
          { hooks: [{ type: 'command', command: 'node', args: [agentHook, 'claude'], timeout: 10 }] },
        ],
      },
    }),
  )
  const out = await runCliJson<InstallJson>(['install-hooks'], { cwd: repo.path, env })
  assert.equal(out.claude.change, 'updated')
  const stop = (
    readJson(file) as { hooks: { Stop: { hooks: { args?: string[]; asyncRewake?: boolean }[] }[] } }
  ).hooks.Stop
  assert.deepEqual(stop[0], { hooks: [mine] }, "the user's group first, as it was")
  assert.deepEqual(
    stop
      .slice(1)
      .map((group) => group.hooks.map((handler) => [handler.args?.[0], handler.asyncRewake ?? false])),
    [
      [
        [agentHook, false],
        [join(projectRoot, 'dist', 'hooks', 'claude-wake-main.cjs'), true],
      ],
    ],
    'one group of ours: the Stop hook and the waiter',
  )
  const again = await runCliJson<InstallJson>(['install-hooks'], { cwd: repo.path, env })
  assert.equal(again.claude.change, 'unchanged')
  const removed = await runCliJson<UninstallJson>(['install-hooks', '--uninstall'], { cwd: repo.path, env })
  assert.equal(removed.claude.change, 'removed')
  assert.deepEqual(readJson(file), { hooks: { Stop: [{ hooks: [mine] }] } })
})

test('a settings.json the user edited by hand keeps every entry; ours is added once and removed alone', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = envFor(home.path)
  const own = {
    permissions: { allow: ['Bash(npm test)'] },
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './my-guard.sh' }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
    },
    model: 'opus',
  }
  const file = join(repo.path, '.claude', 'settings.json')
  mkdirSync(join(repo.path, '.claude'))
  writeFileSync(file, JSON.stringify(own, null, 4))
  await runCliJson(['install-hooks'], { cwd: repo.path, env })
  await runCliJson(['install-hooks'], { cwd: repo.path, env })
  const installed = readJson(file) as typeof own & { hooks: Record<string, unknown[]> }
  assert.deepEqual(installed.permissions, own.permissions)
  assert.equal(installed.model, 'opus')
  // Our Stop handler (presence) joins the user's as a group of its own, after it.
  assert.equal(installed.hooks.Stop?.length, 2)
  assert.deepEqual(installed.hooks.Stop?.[0], own.hooks.Stop[0])
  assert.equal(installed.hooks.PreToolUse?.length, 2)
  assert.deepEqual(installed.hooks.PreToolUse?.[0], own.hooks.PreToolUse[0])
  const out = await runCliJson<UninstallJson>(['install-hooks', '--uninstall'], { cwd: repo.path, env })
  assert.equal(out.claude.change, 'removed')
  assert.deepEqual(readJson(file), own)
})

test('a hooks.json the user edited by hand keeps its groups and indices; ours go after them', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = envFor(home.path)
  const own = {
    description: 'my hooks',
    hooks: { PreToolUse: [{ matcher: '^Bash$', hooks: [{ type: 'command', command: 'my-bash-guard' }] }] },
  }
  const file = join(home.path, '.codex', 'hooks.json')
  mkdirSync(join(home.path, '.codex'), { recursive: true })
  writeFileSync(file, `${JSON.stringify(own, null, 2)}\n`)
  writeFileSync(join(home.path, '.codex', 'config.toml'), '# mine\nmodel = "gpt-5.5"\n')
  const out = await runCliJson<InstallJson>(['install-hooks', '--user'], { cwd: repo.path, env })
  assert.equal(out.codex.level, 'user')
  assert.equal(out.claude.file, join(home.path, '.claude', 'settings.json'))
  const installed = readJson(file) as typeof own & { hooks: Record<string, unknown[]> }
  assert.equal(installed.description, 'my hooks')
  assert.deepEqual(installed.hooks.PreToolUse?.[0], own.hooks.PreToolUse[0])
  assert.equal(installed.hooks.PreToolUse?.length, 2)
  assert.ok(out.codex.trust.recorded.includes(`${file}:pre_tool_use:1:0`), 'our group is the second one')
  const config = readFileSync(join(home.path, '.codex', 'config.toml'), 'utf8')
  assert.ok(config.startsWith('# mine\nmodel = "gpt-5.5"\n'), 'the user text is kept as written')

  const removed = await runCliJson<UninstallJson>(['install-hooks', '--uninstall', '--user'], {
    cwd: repo.path,
    env,
  })
  assert.equal(removed.codex.trustRemoved.length, 5)
  assert.deepEqual(readJson(file), own)
  assert.equal(readFileSync(join(home.path, '.codex', 'config.toml'), 'utf8'), '# mine\nmodel = "gpt-5.5"\n')
})

test('in a project Codex trusts, the hooks go to the project .codex/hooks.json', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = envFor(home.path)
  mkdirSync(join(home.path, '.codex'), { recursive: true })
  writeFileSync(
    join(home.path, '.codex', 'config.toml'),
    `[projects.${JSON.stringify(repo.path)}]\ntrust_level = "trusted"\n`,
  )
  const out = await runCliJson<InstallJson>(['install-hooks'], { cwd: repo.path, env })
  assert.equal(out.codex.level, 'project')
  assert.equal(out.codex.levelNote, null)
  assert.equal(out.codex.file, join(repo.path, '.codex', 'hooks.json'))
  assert.equal(out.codex.trust.status, 'trusted')
})

test('once the Codex hooks live at the user level they stay there, with Codex or without it', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = envFor(home.path)
  const first = await runCliJson<InstallJson>(['install-hooks'], { cwd: repo.path, env })
  assert.equal(first.codex.level, 'user')
  mkdirSync(join(home.path, '.codex'), { recursive: true })
  writeFileSync(
    join(home.path, '.codex', 'config.toml'),
    `${readFileSync(join(home.path, '.codex', 'config.toml'), 'utf8')}\n[projects.${JSON.stringify(repo.path)}]\ntrust_level = "trusted"\n`,
  )
  for (const withCodex of [env, isolatedEnv(home.path)]) {
    const again = await runCliJson<InstallJson>(['install-hooks'], { cwd: repo.path, env: withCodex })
    assert.equal(again.codex.level, 'user')
    assert.equal(again.codex.change, 'unchanged')
    assert.match(again.codex.levelNote ?? '', /installed for your user .*covers this project too/)
    assert.throws(
      () => readFileSync(join(repo.path, '.codex', 'hooks.json')),
      'no project copy: each hook would run twice',
    )
  }
})

test('Codex trust is rewritten in place when our hook changes (sangam moved), never appended twice', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = envFor(home.path)
  const first = await runCliJson<InstallJson>(['install-hooks'], { cwd: repo.path, env })
  const configFile = first.codex.trust.configFile
  const before = readFileSync(configFile, 'utf8')

  // A second copy of sangam elsewhere: its hook command names another path, so Codex's hash changes.
  const result = await runCli(['install-hooks', '--json'], {
    cwd: repo.path,
    env,
    entry: installedElsewhere(home.path),
  })
  assert.equal(result.code, 0, result.stderr)
  const second = JSON.parse(result.stdout) as InstallJson
  assert.equal(second.codex.change, 'updated')
  assert.equal(second.codex.trust.status, 'trusted')
  assert.deepEqual(second.codex.trust.recorded.sort(), first.codex.trust.recorded.sort())
  const after = readFileSync(configFile, 'utf8')
  assert.notEqual(after, before)
  for (const key of first.codex.trust.recorded) {
    assert.equal(after.split(`[hooks.state.${JSON.stringify(key)}]`).length, 2, `one table for ${key}`)
  }
  assert.equal(after.split('\n').length, before.split('\n').length, 'lines were replaced, not added')
})

test('a settings.json that is not valid JSON is refused and left byte for byte', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = envFor(home.path)
  const file = join(repo.path, '.claude', 'settings.json')
  mkdirSync(join(repo.path, '.claude'))
  writeFileSync(file, '{ "hooks": { oops ')
  const result = await runCli(['install-hooks'], { cwd: repo.path, env })
  assert.equal(result.code, 2)
  assert.match(result.stderr, /settings\.json is not valid JSON.*left it unchanged/)
  assert.equal(readFileSync(file, 'utf8'), '{ "hooks": { oops ')
})

test('an existing pre-push hook is chained and comes back on uninstall; core.hooksPath is honoured', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = envFor(home.path)
  const hooks = join(repo.path, 'my-hooks')
  mkdirSync(hooks)
  const own = '#!/bin/sh\necho mine >&2\n'
  writeFileSync(join(hooks, 'pre-push'), own, { mode: 0o755 })
  git(repo.path, 'config', 'core.hooksPath', 'my-hooks')
  const out = await runCliJson<InstallJson>(['install-hooks'], { cwd: repo.path, env })
  assert.equal(out.git.file, join(hooks, 'pre-push'))
  assert.equal(out.git.chained, join(hooks, 'pre-push.sangam-chained'))
  assert.equal(readFileSync(join(hooks, 'pre-push.sangam-chained'), 'utf8'), own)
  const removed = await runCliJson<UninstallJson>(['install-hooks', '--uninstall'], { cwd: repo.path, env })
  assert.equal(removed.git.change, 'removed')
  assert.equal(readFileSync(join(hooks, 'pre-push'), 'utf8'), own)
})

test('--uninstall removes only ours and says what remains at the other level', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = envFor(home.path)
  await runCliJson(['install-hooks'], { cwd: repo.path, env })
  const out = await runCliJson<UninstallJson>(['install-hooks', '--uninstall'], { cwd: repo.path, env })
  assert.equal(out.claude.change, 'removed')
  assert.equal(out.git.change, 'removed')
  // The Codex hooks went to the user level (the project is untrusted), which a project uninstall leaves.
  assert.equal(out.codex.change, 'absent')
  assert.deepEqual(out.remaining, [join(home.path, '.codex', 'hooks.json')])
  const again = await runCliJson<UninstallJson>(['install-hooks', '--uninstall'], { cwd: repo.path, env })
  assert.deepEqual(
    [again.claude.change, again.codex.change, again.git.change],
    ['absent', 'absent', 'absent'],
  )
})
