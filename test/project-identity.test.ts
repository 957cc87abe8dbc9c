import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { connectMcp } from './helpers/mcp-client.ts'
import { type CliResult, isolatedEnv, runCli } from './helpers/run-cli.ts'
import { git, type TmpRepo, tmpDir, tmpRepoWith } from './helpers/tmp-git-repo.ts'
import { claudeEdit, runAgentHook } from './hooks-agent-run.ts'

/**
 * A project's identity, end to end with the compiled CLI, the compiled hook and real git: it is
 * recorded once the project exists and no remote added, changed or removed moves it; a store of an
 * earlier identity is adopted; a command that only reads never creates a store.
 */
const bob = 'bob@example.com'

interface InitJson {
  projectId: string
  identitySource: string
  database: string
  adopted: { projectId: string } | null
  otherStores: { projectId: string; contents: { liveLeases: number; messages: number } | null }[]
}

async function world() {
  const home = tmpDir()
  const repo = tmpRepoWith({ 'src/a.ts': 'export const a = 1\n' })
  const env = isolatedEnv(home.path, { SANGAM_USER: 'dev@example.com' })
  const sangamHome = join(home.path, '.sangam')
  const cli = (args: readonly string[], cwd = repo.path, extra: Record<string, string> = {}) =>
    runCli(args, { cwd, env: { ...env, ...extra } })
  const json = async <T>(args: readonly string[], cwd = repo.path, extra: Record<string, string> = {}) => {
    const result = await cli([...args, '--json'], cwd, extra)
    assert.equal(result.code, 0, `sangam ${args.join(' ')}: ${result.stderr}`)
    return JSON.parse(result.stdout) as T
  }
  return {
    home,
    repo,
    env,
    sangamHome,
    cli,
    json,
    stores: () => (existsSync(join(sangamHome, 'projects')) ? readdirSync(join(sangamHome, 'projects')) : []),
    /** Another Claude session's write of `file` (relative to `cwd`), through the PreToolUse hook. */
    edit: (cwd: string, file: string) =>
      runAgentHook('claude', claudeEdit(cwd, join(cwd, file)), {
        cwd,
        env: { ...env, SANGAM_USER: 'eve@example.com' },
      }),
    async [Symbol.asyncDispose]() {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
}

function denied(run: Awaited<ReturnType<typeof runAgentHook>>, what: string): void {
  assert.equal(run.code, 0, run.stderr)
  assert.equal(run.output?.hookSpecificOutput?.permissionDecision, 'deny', `${what}: ${run.stdout}`)
  assert.match(
    run.output?.hookSpecificOutput?.permissionDecisionReason ?? '',
    /src\/a\.ts is leased to bob@example\.com/,
  )
}

/** A project with a lease (bob's), a lane and a message, its hooks installed. */
async function usedProject(w: Awaited<ReturnType<typeof world>>): Promise<{ init: InitJson; lane: string }> {
  const init = await w.json<InitJson>(['init', '--no-mcp'])
  await w.json(['install-hooks'])
  await w.json(['claim', 'src/a.ts', '--reason', 'rewriting a'], w.repo.path, { SANGAM_USER: bob })
  const lane = (await w.json<{ lane: { worktree: string } }>(['lane', 'alice', '--no-agent'])).lane.worktree
  await w.json(['post', 'the flamingo exporter is mine this week'])
  return { init, lane }
}

/** The lease, the lane and the message, as `leases`, `status` and `read` list them from `cwd`. */
async function seesEverything(
  w: Awaited<ReturnType<typeof world>>,
  cwd: string,
  when: string,
): Promise<void> {
  const leases = await w.json<{ leases: { pattern: string; holder: { human: string } }[] }>(['leases'], cwd)
  assert.deepEqual(
    leases.leases.map((lease) => [lease.pattern, lease.holder.human]),
    [['src/a.ts', bob]],
    `leases ${when}`,
  )
  const status = await w.json<{ lanes: { name: string }[] }>(['status'], cwd)
  assert.deepEqual(
    status.lanes.map((lane) => lane.name),
    ['alice'],
    `status ${when}`,
  )
  const read = await w.json<{ messages: { text: string }[] }>(['read'], cwd)
  assert.deepEqual(
    read.messages.map((message) => message.text),
    ['the flamingo exporter is mine this week'],
    `read ${when}`,
  )
}

test('adding, changing and removing a remote leaves the project, its leases, lanes and messages as they were', async () => {
  await using w = await world()
  const { init, lane } = await usedProject(w)
  assert.equal(init.identitySource, 'common-dir')
  const worktree = join(w.repo.path, '..', 'second')
  git(w.repo.path, 'worktree', 'add', '-q', worktree, '-b', 'second')
  const steps: [string, () => void][] = [
    [
      'after git remote add',
      () => git(w.repo.path, 'remote', 'add', 'origin', 'git@github.com:acme/widget.git'),
    ],
    [
      'after git remote set-url',
      () => git(w.repo.path, 'remote', 'set-url', 'origin', 'https://github.com/acme/other.git'),
    ],
    ['after git remote remove', () => git(w.repo.path, 'remote', 'remove', 'origin')],
  ]
  for (const [when, step] of steps) {
    step()
    // Every worktree (the main one, a second one, the lane) is the one project, and denies.
    for (const cwd of [w.repo.path, worktree, lane])
      denied(await w.edit(cwd, 'src/a.ts'), `${when}, in ${cwd}`)
    await seesEverything(w, w.repo.path, when)
    for (const cwd of [worktree, lane]) {
      const leases = await w.json<{ leases: { pattern: string }[] }>(['leases'], cwd)
      assert.deepEqual(
        leases.leases.map((lease) => lease.pattern),
        ['src/a.ts'],
        `leases ${when}, in ${cwd}`,
      )
    }
    const again = await w.json<InitJson>(['init', '--no-mcp'])
    assert.equal(again.projectId, init.projectId, `init ${when}`)
    assert.deepEqual(again.otherStores, [])
    assert.deepEqual(w.stores(), [init.projectId], `one store ${when}`)
  }
  assert.equal(readFileSync(join(w.repo.path, '.git', 'sangam', 'project-id'), 'utf8').trim(), init.projectId)
})

test('a command that only reads creates no store: it says there is nothing yet, and exits 4', async () => {
  await using w = await world()
  const reads = [
    ['status'],
    ['leases'],
    ['read'],
    ['search', 'flamingo'],
    ['who-has', 'src/a.ts'],
    ['board'],
    ['targets'],
    ['threads'],
    ['thread', 'evt_0'],
    ['doctor'],
    ['sessions'],
    ['deliveries'],
    ['log'],
    ['brief'],
    ['alerts'],
    ['options'],
    ['rules'],
    ['connection'],
    ['ready'],
  ]
  for (const args of reads) {
    const result: CliResult = await w.cli(args)
    assert.equal(result.code, 4, `sangam ${args.join(' ')}: ${result.stdout}${result.stderr}`)
    assert.match(
      result.stderr,
      /nothing yet: sangam has no project for .*; sangam init starts one/,
      args.join(' '),
    )
    const json = await w.cli([...args, '--json'])
    assert.equal(
      (JSON.parse(json.stdout) as { error: { code: string } }).error.code,
      'NOT_FOUND',
      args.join(' '),
    )
  }
  // The MCP server's tools that only read, as an agent calls them (Codex registers it for every
  // repository): the same answer, as a tool error.
  {
    await using mcp = await connectMcp(w.repo.path, w.env)
    for (const [name, args] of [
      ['ctx_search', { query: 'flamingo' }],
      ['ctx_brief', {}],
      ['ctx_who_has', { path: 'src/a.ts' }],
      ['room_read', {}],
      ['room_threads', {}],
      ['room_targets', {}],
      ['room_rules', {}],
    ] as const) {
      const result = await mcp.call(name, args)
      assert.equal(result.isError, true, name)
      const [first] = result.content as { text: string }[]
      assert.match(first?.text ?? '', /^NOT_FOUND: nothing yet/, name)
    }
  }
  assert.deepEqual(w.stores(), [], 'no store was created')
  assert.equal(existsSync(join(w.repo.path, '.git', 'sangam', 'project-id')), false, 'no identity recorded')
  // A command that writes starts the project as before.
  await w.json(['claim', 'src/a.ts', '--reason', 'starting'])
  assert.equal(w.stores().length, 1)
  assert.equal((await w.cli(['leases'])).code, 0)
})

/** What a sangam from before ids were recorded left: a store, and no recorded id. */
function forgetRecordedId(repo: TmpRepo): void {
  rmSync(join(repo.path, '.git', 'sangam', 'project-id'), { force: true })
}

test('a store from before ids were recorded is adopted after a remote is added, by the hook and by commands', async () => {
  await using w = await world()
  const { init } = await usedProject(w)
  forgetRecordedId(w.repo)
  git(w.repo.path, 'remote', 'add', 'origin', 'git@github.com:acme/widget.git')
  // The hook is first: it adopts the store it finds under the id the common dir derives.
  denied(await w.edit(w.repo.path, 'src/a.ts'), 'after an upgrade and a remote')
  assert.equal(readFileSync(join(w.repo.path, '.git', 'sangam', 'project-id'), 'utf8').trim(), init.projectId)
  forgetRecordedId(w.repo)
  await seesEverything(w, w.repo.path, 'after an upgrade and a remote')
  assert.deepEqual(w.stores(), [init.projectId])
  assert.equal(readFileSync(join(w.repo.path, '.git', 'sangam', 'project-id'), 'utf8').trim(), init.projectId)
})

test('a checkout split in two stores by a remote keeps the older, and init and doctor name the other', async () => {
  await using w = await world()
  const { init } = await usedProject(w)
  // Rebuild what an earlier sangam did: the remote is added, and the next commands started a new
  // store under the remote's id, with its own lease and message (the old store hidden meanwhile).
  forgetRecordedId(w.repo)
  git(w.repo.path, 'remote', 'add', 'origin', 'git@github.com:acme/widget.git')
  const hidden = join(w.home.path, 'hidden')
  renameSync(join(w.sangamHome, 'projects', init.projectId), hidden)
  await w.json(['claim', 'docs/**', '--reason', 'after the remote'], w.repo.path, { SANGAM_USER: bob })
  await w.json(['post', 'posted after the remote'])
  const [split] = w.stores()
  assert.ok(split !== undefined && split !== init.projectId)
  forgetRecordedId(w.repo)
  renameSync(hidden, join(w.sangamHome, 'projects', init.projectId))

  // Both hold work: the older is the project (D261), the newer is kept and named.
  denied(await w.edit(w.repo.path, 'src/a.ts'), 'a split checkout')
  await seesEverything(w, w.repo.path, 'in a split checkout')
  const doctor = await w.cli(['doctor'])
  assert.equal(doctor.code, 0, doctor.stderr)
  assert.match(
    doctor.stdout,
    new RegExp(
      `other store of this checkout, not in use: ${split} \\(1 live lease\\(s\\), 1 lease change\\(s\\), 1 message\\(s\\)`,
    ),
  )
  const again = await w.json<InitJson>(['init', '--no-mcp'])
  assert.equal(again.projectId, init.projectId)
  assert.deepEqual(
    again.otherStores.map((store) => [store.projectId, store.contents?.liveLeases, store.contents?.messages]),
    [[split, 1, 1]],
  )
  const text = await w.cli(['init', '--no-mcp'])
  assert.match(text.stdout, new RegExp(`other {5}${split} .*sangam init --adopt ${split}`))

  // init --adopt switches to the other; the first stays, and switching back is the same command.
  const adopted = await w.json<InitJson>(['init', '--no-mcp', '--adopt', split])
  assert.equal(adopted.projectId, split)
  assert.deepEqual(
    adopted.otherStores.map((store) => store.projectId),
    [init.projectId],
  )
  const leases = await w.json<{ leases: { pattern: string }[] }>(['leases'])
  assert.deepEqual(
    leases.leases.map((lease) => lease.pattern),
    ['docs/**'],
  )
  const unknown = await w.cli(['init', '--no-mcp', '--adopt', 'prj_0000000000000000'])
  assert.equal(unknown.code, 4)
  assert.match(unknown.stderr, /is no store of this checkout/)
  assert.equal(
    (await w.json<InitJson>(['init', '--no-mcp', '--adopt', init.projectId])).projectId,
    init.projectId,
  )
  await seesEverything(w, w.repo.path, 'adopted back')
})

test("a recorded project whose store is gone: the hook says so and names the checkout's other store; a command adopts it", async () => {
  await using w = await world()
  const { init } = await usedProject(w)
  writeFileSync(join(w.repo.path, '.git', 'sangam', 'project-id'), 'prj_00000000000000ff\n')
  const run = await w.edit(w.repo.path, 'src/a.ts')
  assert.equal(run.code, 0, run.stderr)
  assert.notEqual(run.output?.hookSpecificOutput?.permissionDecision, 'deny')
  const context = JSON.stringify(run.output)
  assert.match(context, /prj_00000000000000ff\/sangam\.db is missing, but this checkout has another: /)
  assert.ok(context.includes(join(init.projectId, 'sangam.db')), context)
  const again = await w.json<InitJson>(['init', '--no-mcp'])
  assert.deepEqual([again.projectId, again.adopted?.projectId], [init.projectId, init.projectId])
  denied(await w.edit(w.repo.path, 'src/a.ts'), 'after init adopted the store')
  await seesEverything(w, w.repo.path, 'after init adopted the store')
})

test('a command finds its project without running git once one ran there, and sees a remote added at once', async () => {
  await using w = await world()
  await w.json(['init', '--no-mcp'])
  // A `git` first on PATH that notes each call, then runs the real one.
  const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim()
  const shim = join(w.home.path, 'git-shim')
  const calls = join(w.home.path, 'git-calls.txt')
  mkdirSync(shim)
  writeFileSync(join(shim, 'git'), `#!/bin/sh\necho "$*" >> '${calls}'\nexec '${realGit}' "$@"\n`, {
    mode: 0o755,
  })
  const shimmed = { PATH: `${shim}:${w.env.PATH}` }
  const gitCalls = async (args: readonly string[]): Promise<string[]> => {
    rmSync(calls, { force: true })
    await w.json(args, w.repo.path, shimmed)
    return existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n') : []
  }
  await gitCalls(['read'])
  assert.deepEqual(await gitCalls(['read']), [], 'no git process to find the project')
  assert.deepEqual(await gitCalls(['read']), [])
  git(w.repo.path, 'remote', 'add', 'origin', 'https://example.com/team/flamingo.git')
  const afterRemote = await gitCalls(['read'])
  assert.ok(
    afterRemote.some((call) => call.startsWith('config ')),
    `a changed git config is read again: ${afterRemote.join(' | ')}`,
  )
  assert.deepEqual(await gitCalls(['read']), [])
})
