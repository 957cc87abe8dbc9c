import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { installedElsewhere, isolatedEnv, runCliJson } from './helpers/run-cli.ts'
import { tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'
import { claudeEdit, runAgentHook } from './hooks-agent-run.ts'
import { installFakeCodex } from './hooks-fake-codex.ts'

/**
 * `sangam doctor` proves hooks work by their heartbeats, not by their files: installed is not
 * enough, and it says so plainly.
 */
interface HookHealth {
  host: string
  event: string
  installedIn: string[]
  outdatedIn: string[]
  trust: string | null
  lastSeen: { at: string; hostVersion: string | null; outcome: string; durationMs: number } | null
}
interface Doctor {
  sections: { name: string; status: string; notes: string[]; hooks?: HookHealth[] }[]
}

async function hooksOf(cwd: string, env: Record<string, string | undefined>) {
  const doctor = await runCliJson<Doctor>(['doctor'], { cwd, env })
  const section = doctor.sections.find((candidate) => candidate.name === 'hooks')
  assert.ok(section, 'doctor has a hooks section')
  const hook = (host: string, event: string): HookHealth => {
    const found = section.hooks?.find((candidate) => candidate.host === host && candidate.event === event)
    assert.ok(found, `${host} ${event}`)
    return found
  }
  return { section, hook }
}

test('without install-hooks, doctor says each hook is not installed', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = isolatedEnv(home.path, { PATH: `${installFakeCodex(home.path)}:${process.env.PATH}` })
  // doctor only reads: it needs a project to look at (D262).
  await runCliJson(['init', '--no-mcp'], { cwd: repo.path, env })
  const { section } = await hooksOf(repo.path, env)
  assert.equal(section.status, 'warn')
  assert.ok(section.notes.includes('Claude Code PreToolUse is not installed: run sangam install-hooks'))
  assert.ok(section.notes.includes('git pre-push is not installed: run sangam install-hooks'))
})

test('installed but never fired is a warning; a real run is then seen, with the host version', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = isolatedEnv(home.path, { PATH: `${installFakeCodex(home.path)}:${process.env.PATH}` })
  await runCliJson(['install-hooks'], { cwd: repo.path, env })
  const before = await hooksOf(repo.path, env)
  assert.equal(before.section.status, 'warn')
  assert.equal(before.hook('claude', 'PreToolUse').lastSeen, null)
  assert.equal(before.hook('codex', 'PreToolUse').trust, 'trusted')
  // The first day: one line for all of a host's hooks, not one per event.
  assert.equal(
    before.section.notes.filter((note) => note.startsWith('Claude Code')).length,
    1,
    before.section.notes.join('\n'),
  )
  assert.ok(
    before.section.notes.some((note) =>
      /^Claude Code's hooks are installed \(.*settings\.json\) but none has been seen firing: start a Claude Code session in this project; PreToolUse runs on the next file edit/.test(
        note,
      ),
    ),
    before.section.notes.join('\n'),
  )

  const run = await runAgentHook('claude', claudeEdit(repo.path, join(repo.path, 'x.ts')), {
    cwd: repo.path,
    env: { ...env, AI_AGENT: 'claude-code_2-1-332_harness' },
  })
  assert.equal(run.code, 0, run.stderr)
  const after = await hooksOf(repo.path, env)
  const seen = after.hook('claude', 'PreToolUse').lastSeen
  assert.equal(seen?.hostVersion, '2.1.332')
  assert.equal(seen?.outcome, 'allow')
  assert.ok(!after.section.notes.some((note) => note.startsWith('Claude Code PreToolUse')))
  // Once one has fired, the others that have not are named each.
  assert.ok(
    after.section.notes.some(
      (note) =>
        note.startsWith('Claude Code SessionStart is installed') &&
        note.includes('has never been seen firing'),
    ),
    after.section.notes.join('\n'),
  )
})

test('a Codex hook edited since it was trusted is reported stale', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = isolatedEnv(home.path, { PATH: `${installFakeCodex(home.path)}:${process.env.PATH}` })
  await runCliJson(['install-hooks', '--user'], { cwd: repo.path, env })
  const file = join(home.path, '.codex', 'hooks.json')
  writeFileSync(file, readFileSync(file, 'utf8').replaceAll('"timeout": 10', '"timeout": 11'))
  const { hook, section } = await hooksOf(repo.path, env)
  assert.equal(hook('codex', 'PreToolUse').trust, 'modified')
  assert.ok(
    section.notes.some((note) =>
      /^Codex PreToolUse is trusted for an older version of the hook \(stale\)/.test(note),
    ),
  )
})

test('when Codex cannot be asked, doctor says so rather than guessing', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const withCodex = isolatedEnv(home.path, { PATH: `${installFakeCodex(home.path)}:${process.env.PATH}` })
  await runCliJson(['install-hooks', '--user'], { cwd: repo.path, env: withCodex })
  const { hook, section } = await hooksOf(repo.path, isolatedEnv(home.path))
  assert.equal(hook('codex', 'PreToolUse').trust, 'unknown')
  assert.ok(
    section.notes.some((note) =>
      /^could not ask Codex whether it trusts the hooks: codex is not installed/.test(note),
    ),
  )
})

test('Gemini CLI hooks are listed by their own event names, seen firing, and named when another sangam wrote them', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = isolatedEnv(home.path, { PATH: `${installFakeCodex(home.path)}:${process.env.PATH}` })
  await runCliJson(['install-hooks'], { cwd: repo.path, env })
  const settings = join(repo.path, '.gemini', 'settings.json')
  const before = await hooksOf(repo.path, env)
  const gate = before.hook('gemini', 'BeforeTool')
  assert.deepEqual(gate.installedIn, [settings])
  assert.deepEqual(gate.outdatedIn, [])
  assert.equal(gate.lastSeen, null)
  assert.ok(
    before.section.notes.some((note) =>
      note.startsWith(
        `Gemini CLI's hooks are installed (${settings}) but none has been seen firing: start a Gemini CLI session in this project; BeforeTool runs on the next write_file`,
      ),
    ),
    before.section.notes.join('\n'),
  )

  const run = await runAgentHook(
    'gemini',
    {
      session_id: 'a5e5a5e5-0000-4000-8000-000000000001',
      transcript_path: join(repo.path, 'chat.jsonl'),
      cwd: repo.path,
      hook_event_name: 'BeforeTool',
      tool_name: 'write_file',
      tool_input: { file_path: join(repo.path, 'x.ts'), content: 'x' },
    },
    { cwd: repo.path, env },
  )
  assert.equal(run.code, 0, run.stderr)
  const after = await hooksOf(repo.path, env)
  assert.equal(after.hook('gemini', 'BeforeTool').lastSeen?.outcome, 'allow')
  assert.ok(!after.section.notes.some((note) => note.startsWith('Gemini CLI BeforeTool')))

  // Another copy of sangam (another path) installs over it: this one's doctor names the file.
  await runCliJson(['install-hooks'], { cwd: repo.path, env, entry: installedElsewhere(home.path) })
  const moved = await hooksOf(repo.path, env)
  assert.deepEqual(moved.hook('gemini', 'BeforeTool').outdatedIn, [settings])
  assert.ok(
    moved.section.notes.includes(
      `Gemini CLI BeforeTool in ${settings} is not this sangam's (an older install, or another copy's path): run sangam install-hooks`,
    ),
    moved.section.notes.join('\n'),
  )
  await runCliJson(['install-hooks'], { cwd: repo.path, env })
  assert.deepEqual((await hooksOf(repo.path, env)).hook('gemini', 'BeforeTool').outdatedIn, [])
})

test("opencode's plugin is listed where the project uses opencode, and an outdated plugin is named", async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = isolatedEnv(home.path, { PATH: `${installFakeCodex(home.path)}:${process.env.PATH}` })
  await runCliJson(['init', '--no-mcp'], { cwd: repo.path, env })
  // A project without opencode: the plugin's absence is no fault.
  const without = await hooksOf(repo.path, env)
  assert.deepEqual(without.hook('opencode', 'PreToolUse').installedIn, [])
  assert.ok(
    !without.section.notes.some((note) => note.startsWith('opencode')),
    without.section.notes.join('\n'),
  )

  mkdirSync(join(repo.path, '.opencode'))
  const unprotected = await hooksOf(repo.path, env)
  assert.ok(
    unprotected.section.notes.includes('opencode PreToolUse is not installed: run sangam install-hooks'),
  )

  await runCliJson(['install-hooks'], { cwd: repo.path, env })
  const plugin = join(repo.path, '.opencode', 'plugins', 'sangam.js')
  const installed = await hooksOf(repo.path, env)
  for (const event of ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'Stop', 'SessionEnd']) {
    assert.deepEqual(installed.hook('opencode', event).installedIn, [plugin], event)
    assert.deepEqual(installed.hook('opencode', event).outdatedIn, [], event)
  }
  const run = await runAgentHook(
    'opencode',
    claudeEdit(repo.path, join(repo.path, 'x.ts'), 'ses_doctor01', 'write'),
    {
      cwd: repo.path,
      env,
    },
  )
  assert.equal(run.code, 0, run.stderr)
  assert.equal((await hooksOf(repo.path, env)).hook('opencode', 'PreToolUse').lastSeen?.outcome, 'allow')

  // An older plugin (its source differs from what this sangam writes).
  writeFileSync(
    plugin,
    readFileSync(plugin, 'utf8').replace('const patienceMs = 10000', 'const patienceMs = 5000'),
  )
  const old = await hooksOf(repo.path, env)
  assert.deepEqual(old.hook('opencode', 'Stop').outdatedIn, [plugin])
  assert.ok(
    old.section.notes.includes(
      `opencode PreToolUse in ${plugin} is not this sangam's (an older install, or another copy's path): run sangam install-hooks`,
    ),
  )
})
