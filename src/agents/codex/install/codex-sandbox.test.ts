import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { codexSandbox, laneSandboxWarning, runsCodex } from './codex-sandbox.ts'

function withConfig(text: string | null, check: (home: string) => void): void {
  const home = mkdtempSync(join(tmpdir(), 'sangam-codex-home-'))
  try {
    if (text !== null) writeFileSync(join(home, 'config.toml'), text)
    check(home)
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
}

/** The mode a config.toml text gives, or `default` / `unreadable`. */
function modeOf(text: string | null): string {
  let seen = ''
  withConfig(text, (home) => {
    const sandbox = codexSandbox(home)
    seen = sandbox.kind === 'mode' ? sandbox.mode : sandbox.kind
  })
  return seen
}

test('the top-level sandbox_mode, whatever its quoting and comments', () => {
  assert.equal(modeOf('sandbox_mode = "danger-full-access"\n'), 'danger-full-access')
  assert.equal(modeOf("sandbox_mode='workspace-write' # a comment\n"), 'workspace-write')
  assert.equal(modeOf('# sandbox_mode = "danger-full-access"\nmodel = "gpt-5.5"\n'), 'default')
  assert.equal(modeOf('model = "x"\n\n[features]\nplugins = false\n'), 'default')
  assert.equal(modeOf(null), 'default', 'no config.toml: Codex runs read-only')
})

test('a sandbox_mode inside a table is not the top-level one', () => {
  assert.equal(modeOf('[sandbox_workspace_write]\nsandbox_mode = "danger-full-access"\n'), 'default')
  assert.equal(
    modeOf(
      'sandbox_mode = "read-only"\n[projects."/repo"]\ntrust_level = "trusted"\nsandbox_mode = "danger-full-access"\n',
    ),
    'read-only',
  )
})

test('the selected profile wins over the top-level key; an unselected one does not', () => {
  const profiles =
    'sandbox_mode = "read-only"\n[profiles.lanes]\nsandbox_mode = "danger-full-access"\n[profiles.other]\nsandbox_mode = "workspace-write"\n'
  assert.equal(modeOf(`profile = "lanes"\n${profiles}`), 'danger-full-access')
  assert.equal(modeOf(`profile = "other"\n${profiles}`), 'workspace-write')
  assert.equal(modeOf(profiles), 'read-only')
  assert.equal(modeOf(`profile = "none"\n${profiles}`), 'read-only', 'a profile without the key falls back')
})

test('a config.toml that is not TOML is reported, not guessed', () => {
  withConfig('sandbox_mode = "danger-full-access\n', (home) => {
    const sandbox = codexSandbox(home)
    assert.equal(sandbox.kind, 'unreadable')
    assert.match(laneSandboxWarning('codex', home) ?? '', /is not valid TOML/)
  })
})

test('the warning names the setting and what to do; none for danger-full-access or another agent', () => {
  withConfig('sandbox_mode = "workspace-write"\n', (home) => {
    const warning = laneSandboxWarning('codex', home) ?? ''
    assert.match(warning, /sandbox_mode = "workspace-write"/)
    assert.match(warning, /set sandbox_mode = "danger-full-access" in .*config\.toml/)
    assert.match(warning, /run each task by hand/)
    assert.equal(laneSandboxWarning('claude', home), null)
    assert.equal(laneSandboxWarning(null, home), null)
  })
  withConfig(null, (home) => {
    assert.match(
      laneSandboxWarning('codex', home) ?? '',
      /no sandbox_mode in .* \(Codex's default: read-only\)/,
    )
  })
  withConfig('sandbox_mode = "danger-full-access"\n', (home) => {
    assert.equal(laneSandboxWarning('codex', home), null)
  })
})

test('an agent command line that runs Codex counts as Codex', () => {
  assert.ok(runsCodex('codex'))
  assert.ok(runsCodex('codex --model gpt-5.5'))
  assert.ok(runsCodex('/usr/local/bin/codex'))
  assert.ok(!runsCodex('claude'))
  assert.ok(!runsCodex('codexish'))
  assert.ok(!runsCodex('cat codex'))
})

test("a lane's own .codex/config.toml counts once the folder is trusted, and is the fix offered first", () => {
  withConfig(null, (home) => {
    const lane = mkdtempSync(join(tmpdir(), 'sangam-codex-lane-'))
    try {
      execFileSync('git', ['init', '-q', lane])
      const userFile = join(home, 'config.toml')
      const advice = laneSandboxWarning('codex', home, lane) ?? ''
      assert.ok(
        advice.includes(
          `for this lane alone, put sandbox_mode = "danger-full-access" in ${join(lane, '.codex', 'config.toml')} and add the line /.codex/config.toml to ${join(lane, '.git', 'info', 'exclude')}`,
        ),
        advice,
      )
      assert.ok(advice.includes(`[projects.${JSON.stringify(lane)}] trust_level = "trusted" in ${userFile}`))
      assert.ok(
        advice.indexOf('for this lane alone') < advice.indexOf(`in ${userFile} (every Codex session)`),
      )
      mkdirSync(join(lane, '.codex'))
      writeFileSync(join(lane, '.codex', 'config.toml'), 'sandbox_mode = "danger-full-access"\n')
      assert.equal(modeOfLane(home, lane), 'default', 'not read while the folder is untrusted')
      writeFileSync(
        userFile,
        `sandbox_mode = "workspace-write"\n[projects.${JSON.stringify(lane)}]\ntrust_level = "trusted"\n`,
      )
      rmSync(join(lane, '.codex', 'config.toml'))
      assert.doesNotMatch(
        laneSandboxWarning('codex', home, lane) ?? '',
        /trust/,
        'a trusted folder needs no word of trust',
      )
      writeFileSync(join(lane, '.codex', 'config.toml'), 'sandbox_mode = "danger-full-access"\n')
      assert.equal(modeOfLane(home, lane), 'danger-full-access')
      assert.equal(laneSandboxWarning('codex', home, lane), null, 'this lane can commit: nothing to say')
      // A selected profile still wins over the project layer, as in Codex.
      writeFileSync(
        userFile,
        `profile = "strict"\n[profiles.strict]\nsandbox_mode = "read-only"\n[projects.${JSON.stringify(lane)}]\ntrust_level = "trusted"\n`,
      )
      assert.equal(modeOfLane(home, lane), 'read-only')
      // A project that tracks .codex/config.toml cannot give one lane its own: not offered.
      execFileSync('git', ['-C', lane, 'add', '.codex/config.toml'])
      assert.doesNotMatch(laneSandboxWarning('codex', home, lane) ?? '', /for this lane alone/)
    } finally {
      rmSync(lane, { recursive: true, force: true })
    }
  })
})

function modeOfLane(home: string, lane: string): string {
  const sandbox = codexSandbox(home, lane)
  return sandbox.kind === 'mode' ? sandbox.mode : sandbox.kind
}
