import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { laneProject } from './helpers/lane-fixture.ts'
import { connectMcp } from './helpers/mcp-client.ts'
import { isolatedEnv } from './helpers/run-cli.ts'
import { git } from './helpers/tmp-git-repo.ts'
import { installFakeCodex } from './hooks-fake-codex.ts'

const settings = join('.claude', 'settings.json')
const codexHooks = join('.codex', 'hooks.json')
const mcpJson = '.mcp.json'

const read = (worktree: string, path: string) => readFileSync(join(worktree, path), 'utf8')
const json = (worktree: string, path: string) => JSON.parse(read(worktree, path)) as Record<string, unknown>

test('D312: install-hooks keeps the hook files naming this machine out of git at once, and says so', async () => {
  await using p = await laneProject()
  const installed = await p.cli(['install-hooks'])
  assert.equal(installed.code, 0, installed.stderr)
  assert.match(read(p.repo.path, settings), /agent-hook-main/)
  assert.equal(git(p.repo.path, 'status', '--porcelain'), '', 'nothing for git to offer to commit')
  assert.match(
    installed.stdout,
    /^not in git {3}\.claude\/settings\.json, \.codex\/hooks\.json, \.gemini\/settings\.json$/m,
  )
  assert.match(installed.stdout, /names this machine's paths: never commit; kept out by .*info\/exclude/)
  const exclude = read(p.repo.path, join('.git', 'info', 'exclude'))
  assert.match(exclude, /^\/\.claude\/settings\.json$/m)
  assert.match(exclude, /^\/\.codex\/hooks\.json$/m)
  const report = await p.json<{ files: { path: string; git: string; machinePath: boolean }[] }>([
    'install-hooks',
  ])
  assert.deepEqual(
    report.files.map((file) => [file.path, file.git, file.machinePath]),
    [
      ['.claude/settings.json', 'excluded', true],
      ['.codex/hooks.json', 'excluded', true],
      ['.gemini/settings.json', 'excluded', true],
    ],
  )
})

test("D313: a lane gets the MCP registration and the hooks: sangam's tools answer there, and no worktree is dirty", async () => {
  await using p = await laneProject()
  assert.equal((await p.cli(['init', '--yes'])).code, 0)
  assert.equal((await p.cli(['install-hooks'])).code, 0)
  const alice = await p.lane('alice', 'claude')
  for (const path of [settings, codexHooks, mcpJson])
    assert.equal(read(alice, path), read(p.repo.path, path), `the lane has ${path}`)
  assert.equal(existsSync(join(alice, 'AGENTS.md')), false, 'the hooks brief the agent: no generated file')
  assert.equal(git(p.repo.path, 'status', '--porcelain'), '', 'the main worktree is clean')
  assert.equal(git(alice, 'status', '--porcelain'), '', 'and so is the lane')

  // Claude Code in the lane starts the server its .mcp.json names, from the lane: it answers for the project.
  const launch = (json(alice, mcpJson).mcpServers as Record<string, { command: string; args: string[] }>)
    .sangam
  assert.ok(launch !== undefined, "the lane's .mcp.json registers sangam")
  await using inLane = await connectMcp(
    alice,
    isolatedEnv(p.home.path, { SANGAM_USER: 'alice@x.dev' }),
    launch,
  )
  const status = await inLane.call('lane_status', {})
  assert.notEqual(status.isError, true, inLane.stderr())
  assert.deepEqual(
    (status.structuredContent as { lanes: { name: string }[] }).lanes.map((lane) => lane.name),
    ['alice'],
  )
  // Codex's registration is its user's config.toml, the same for every lane.
  assert.match(read(p.home.path, join('.codex', 'config.toml')), /^\[mcp_servers\.sangam\]$/m)

  p.write(alice, 'src/app.js', 'export function greet() {\n  return "hi"\n}\n')
  const synced = await p.json<{ outcome: string }>(['sync'], { cwd: alice, code: 0 })
  assert.equal(synced.outcome, 'published-direct', "sangam's files never refuse main-dirty")
  assert.equal(
    git(p.repo.path, 'ls-tree', '-r', '--name-only', 'main', '.claude', '.codex', mcpJson),
    '',
    'never published',
  )

  // Without the exclude (a clone set up by an older sangam), sangam's files are still never published.
  writeFileSync(join(p.repo.path, '.git', 'info', 'exclude'), '')
  assert.match(git(alice, 'status', '--porcelain'), /\.mcp\.json/)
  p.write(alice, 'src/more.js', 'export const more = 1\n')
  const again = await p.json<{ outcome: string }>(['sync'], { cwd: alice, code: 0 })
  assert.equal(again.outcome, 'published-direct')
  assert.equal(git(p.repo.path, 'show', 'main:src/more.js'), 'export const more = 1')
  assert.equal(
    git(p.repo.path, 'ls-tree', '-r', '--name-only', 'main', '.claude', '.codex', mcpJson, '.sangam'),
    '',
    'still never published',
  )
})

test("D313: lanes made before init and install-hooks get sangam's files when those run; the user's own entries are kept; --uninstall takes ours out", async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  const own = { permissions: { allow: ['Bash(npm test)'] } }
  p.write(alice, settings, `${JSON.stringify(own, null, 2)}\n`)

  const init = await p.json<{
    mcp: { lanes: { worktree: string; files: { path: string; change: string }[] }[] }
  }>(['init', '--yes'], { code: 0 })
  assert.deepEqual(init.mcp.lanes, [
    {
      worktree: alice,
      files: [
        { path: '.mcp.json', change: 'added' },
        { path: '.gemini/settings.json', change: 'added' },
      ],
    },
  ])
  assert.deepEqual(json(alice, mcpJson), json(p.repo.path, mcpJson))

  const installed = await p.json<{
    lanes: { worktree: string; files: { path: string; change: string }[] }[]
  }>(['install-hooks'], { code: 0 })
  assert.deepEqual(
    installed.lanes.map((lane) => [lane.worktree, lane.files.map((file) => `${file.path} ${file.change}`)]),
    [
      [
        alice,
        [
          '.claude/settings.json updated',
          '.codex/hooks.json added',
          '.mcp.json unchanged',
          '.gemini/settings.json updated',
        ],
      ],
    ],
  )
  const merged = json(alice, settings)
  assert.deepEqual(merged.permissions, own.permissions, "the user's own settings stay")
  assert.deepEqual(merged.hooks, json(p.repo.path, settings).hooks, "sangam's hooks are main's")
  assert.equal(read(alice, codexHooks), read(p.repo.path, codexHooks))
  const again = await p.json<{ lanes: { files: { change: string }[] }[] }>(['install-hooks'], { code: 0 })
  assert.deepEqual(
    again.lanes.flatMap((lane) => lane.files.map((file) => file.change)),
    ['unchanged', 'unchanged', 'unchanged', 'unchanged'],
  )

  const removed = await p.json<{ lanes: { worktree: string; files: { change: string }[] }[] }>(
    ['install-hooks', '--uninstall'],
    { code: 0 },
  )
  assert.deepEqual(
    removed.lanes.map((lane) => [lane.worktree, lane.files.map((file) => file.change)]),
    [[alice, ['removed', 'removed', 'removed']]],
  )
  assert.deepEqual(json(alice, settings), own, 'only the user’s own settings are left')
  assert.equal(existsSync(join(alice, codexHooks)), false)
})

test('D212: hook files that main tracks are left to git: nothing copied, nothing hidden', async () => {
  await using p = await laneProject()
  assert.equal((await p.cli(['install-hooks'])).code, 0)
  git(p.repo.path, 'add', '-f', settings)
  git(p.repo.path, 'commit', '-q', '-m', 'share the hooks')
  const bob = await p.lane('bob', 'claude')
  assert.equal(git(bob, 'ls-files', settings), '.claude/settings.json', 'the lane has it from git')
  assert.equal(git(bob, 'status', '--porcelain'), '')
  const report = await p.json<{ files: { path: string; git: string }[] }>(['install-hooks'], { code: 0 })
  assert.deepEqual(report.files.find((file) => file.path === '.claude/settings.json')?.git, 'tracked')
  const text = await p.cli(['install-hooks'])
  assert.match(
    text.stdout,
    /^do not commit \.claude\/settings\.json: tracked, and sangam's entries name this machine's paths$/m,
  )
  // A tracked file's changes are the user's to see: sangam never hides them.
  writeFileSync(join(p.repo.path, settings), '{}\n')
  assert.match(git(p.repo.path, 'status', '--porcelain'), /^ ?M \.claude\/settings\.json$/m)
})

test("D310: a lane holding only sangam's own files is deleted and its manifest names them; the user's own hook in one keeps the lane", async () => {
  await using p = await laneProject()
  assert.equal((await p.cli(['init', '--yes'])).code, 0)
  assert.equal((await p.cli(['install-hooks'])).code, 0)
  const alice = await p.lane('alice', 'claude')
  const bob = await p.lane('bob', 'claude')
  p.write(alice, 'notes.txt', 'dirty\n')

  const deleted = await p.json<{ manifest: string; sangamFiles: string[] }>(['delete', 'alice'], { code: 0 })
  assert.deepEqual(deleted.sangamFiles.toSorted(), [
    '.claude/settings.json',
    '.codex/hooks.json',
    '.gemini/settings.json',
    '.mcp.json',
  ])
  assert.equal(existsSync(alice), false)
  const manifest = JSON.parse(readFileSync(deleted.manifest, 'utf8')) as {
    sangamFiles: string[]
    dirty: boolean
  }
  assert.deepEqual(manifest.sangamFiles.toSorted(), deleted.sangamFiles.toSorted())
  assert.equal(manifest.dirty, true)
  assert.ok(
    p.refs('refs/sangam/deleted/').some((ref) => ref.endsWith('/alice/lane/dirty')),
    "the user's own work is backed up",
  )
  for (const ref of p.refs('refs/sangam/deleted/'))
    assert.equal(git(p.repo.path, 'ls-tree', '-r', '--name-only', ref, '.claude', '.codex', mcpJson), '')

  // bob's human adds a hook of their own beside sangam's: the file is theirs now, and delete keeps it.
  const hooks = json(bob, settings)
  const preToolUse = (hooks.hooks as Record<string, unknown[]>).PreToolUse ?? []
  ;(hooks.hooks as Record<string, unknown[]>).PreToolUse = [
    { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine' }] },
    ...preToolUse,
  ]
  writeFileSync(join(bob, settings), `${JSON.stringify(hooks, null, 2)}\n`)
  const refused = await p.json<{ error: { code: string; message: string } }>(['delete', 'bob'], { code: 12 })
  assert.equal(refused.error.code, 'lane-ignored-files')
  assert.match(refused.error.message, /ignored files sangam will not delete: \.claude\/settings\.json$/)
  assert.equal(existsSync(join(bob, settings)), true)
})

test("D313: a lane's copy of the project's Codex hooks gets Codex's trust of its own", async () => {
  await using p = await laneProject()
  const env = { PATH: `${installFakeCodex(p.home.path)}:${process.env.PATH}` }
  const carol = join(p.repo.path, '.sangam', 'lanes', 'carol')
  const configFile = join(p.home.path, '.codex', 'config.toml')
  mkdirSync(join(p.home.path, '.codex'), { recursive: true })
  writeFileSync(
    configFile,
    [p.repo.path, carol]
      .map((path) => `[projects.${JSON.stringify(path)}]\ntrust_level = "trusted"\n`)
      .join(''),
  )
  const installed = await p.json<{ codex: { level: string; trust: { status: string } } }>(['install-hooks'], {
    env,
    code: 0,
  })
  assert.deepEqual([installed.codex.level, installed.codex.trust.status], ['project', 'trusted'])
  const entered = await p.json<{ ownFiles: { path: string; change: string }[]; warnings: string[] }>(
    ['lane', 'carol', '--agent', 'codex'],
    { env, code: 0 },
  )
  assert.deepEqual(
    entered.ownFiles.find((file) => file.path === '.codex/hooks.json'),
    { path: '.codex/hooks.json', change: 'added' },
  )
  assert.equal(
    entered.warnings.filter((warning) => /trust/.test(warning)).length,
    0,
    entered.warnings.join('\n'),
  )
  const keys = [...readFileSync(configFile, 'utf8').matchAll(/^\[hooks\.state\."([^"]+)"\]$/gm)].map(
    (match) => match[1] ?? '',
  )
  const inLane = keys.filter((key) => key.startsWith(join(carol, '.codex', 'hooks.json')))
  assert.equal(inLane.length, 5, keys.join('\n'))
})

test("D313: a lane whose tracked settings lack sangam's uncommitted entries is warned about, not changed", async () => {
  await using p = await laneProject()
  p.write(p.repo.path, settings, `${JSON.stringify({ permissions: { allow: ['Bash'] } }, null, 2)}\n`)
  p.commit(p.repo.path, 'team settings')
  assert.equal((await p.cli(['install-hooks'])).code, 0)
  const entered = await p.json<{ warnings: string[]; ownFiles: { path: string }[] }>(
    ['lane', 'dave', '--no-agent'],
    {
      code: 0,
    },
  )
  assert.deepEqual(
    entered.warnings.filter((warning) => warning.includes('.claude/settings.json comes from git')),
    [
      "the lane's .claude/settings.json comes from git without sangam's entries, which are uncommitted in the main worktree, so its agent lacks them: install the hooks for your user instead (sangam install-hooks --uninstall, then --user)",
    ],
  )
  const dave = join(p.repo.path, '.sangam', 'lanes', 'dave')
  assert.deepEqual(
    json(dave, settings),
    { permissions: { allow: ['Bash'] } },
    'git decides what a tracked file holds',
  )
  assert.equal(git(dave, 'status', '--porcelain'), '')
})

test("D415: an opencode lane gets the main worktree's opencode plugin, and no worktree is dirty", async () => {
  await using p = await laneProject()
  mkdirSync(join(p.repo.path, '.opencode'))
  assert.equal((await p.cli(['install-hooks'])).code, 0)
  const plugin = join('.opencode', 'plugins', 'sangam.js')
  assert.match(read(p.repo.path, plugin), /sangam-opencode-plugin/)
  const alice = await p.lane('alice', 'opencode')
  assert.equal(read(alice, plugin), read(p.repo.path, plugin), 'the lane has the plugin')
  assert.equal(git(p.repo.path, 'status', '--porcelain'), '', 'the main worktree is clean')
  assert.equal(git(alice, 'status', '--porcelain'), '', 'and so is the lane')
})

test("an opencode lane gets the main worktree's MCP registration in opencode.json too, however old the lane, and no worktree is dirty", async () => {
  await using p = await laneProject()
  mkdirSync(join(p.repo.path, '.opencode'))
  const early = await p.lane('early')
  const init = await p.json<{
    mcp: { lanes: { worktree: string; files: { path: string; change: string }[] }[] }
  }>(['init', '--yes'], { code: 0 })
  const registered = json(p.repo.path, 'opencode.json').mcp as Record<string, unknown>
  assert.ok(registered.sangam, 'init registered sangam in the main worktree')
  assert.deepEqual(
    init.mcp.lanes.map((lane) => [lane.worktree, lane.files.map((file) => `${file.path} ${file.change}`)]),
    [[early, ['.mcp.json added', '.gemini/settings.json added', 'opencode.json added']]],
    'a lane made before init gets it when init runs',
  )
  assert.deepEqual(json(early, 'opencode.json'), json(p.repo.path, 'opencode.json'))

  assert.equal((await p.cli(['install-hooks'])).code, 0)
  const alice = await p.lane('alice', 'opencode')
  assert.deepEqual(
    (json(alice, 'opencode.json').mcp as Record<string, unknown>).sangam,
    registered.sangam,
    "a new lane's opencode has sangam's MCP server",
  )
  assert.equal(git(p.repo.path, 'status', '--porcelain'), '', 'the main worktree is clean')
  assert.equal(git(alice, 'status', '--porcelain'), '', 'and so is the lane')
  assert.equal(git(early, 'status', '--porcelain'), '', 'and the early one')
})
