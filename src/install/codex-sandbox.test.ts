import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
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
