import assert from 'node:assert/strict'
import { test } from 'node:test'
import { namesMachinePath, splitEntries, withOurEntriesOf } from './our-entries.ts'
import { instructionsMarker, isSangamsOwnChange } from './own-file.ts'

const ours = (path: string) => ({ type: 'command', command: 'node', args: [path, 'claude'], timeout: 10 })
const hooksFile = (path: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ ...extra, hooks: { Stop: [{ hooks: [ours(path)] }] } })
const mine = { type: 'command', command: 'echo mine' }
/** The entry a project depending on sangam commits: the same on every machine. */
const portableHook = `\${CLAUDE_PROJECT_DIR}/node_modules/sangam/dist/hooks/agent-hook-main.cjs`

test("an untracked hook file holding only sangam's handlers is sangam's; any entry of the user's makes it theirs", () => {
  const here = '/opt/sangam/dist/hooks/agent-hook-main.cjs'
  assert.equal(isSangamsOwnChange('.claude/settings.json', hooksFile(here), null), true)
  assert.equal(isSangamsOwnChange('.codex/hooks.json', hooksFile(here), null), true)
  assert.equal(isSangamsOwnChange('.claude/settings.json', hooksFile(here, { model: 'opus' }), null), false)
  const withMine = JSON.stringify({ hooks: { Stop: [{ hooks: [mine] }, { hooks: [ours(here)] }] } })
  assert.equal(isSangamsOwnChange('.claude/settings.json', withMine, null), false)
  assert.equal(isSangamsOwnChange('.claude/settings.json', '{"hooks": {}}', null), false, 'nothing of ours')
  assert.equal(isSangamsOwnChange('.claude/settings.json', '{ oops', null), false, 'unreadable is theirs')
  assert.equal(isSangamsOwnChange('.claude/settings.json', null, '{}'), false, 'a deletion is theirs')
  assert.equal(isSangamsOwnChange('src/settings.json', hooksFile(here), null), false, 'only our paths')
})

test("Claude Code's wake waiter beside our Stop hook is sangam's too, in either path form", () => {
  const waiter = (path: string) => ({
    type: 'command',
    command: 'node',
    args: [path],
    timeout: 604800,
    asyncRewake: true,
  })
  for (const dir of ['/opt/sangam/dist/hooks', `\${CLAUDE_PROJECT_DIR}/node_modules/sangam/dist/hooks`]) {
    const file = JSON.stringify({
      hooks: {
        Stop: [{ hooks: [ours(`${dir}/agent-hook-main.cjs`), waiter(`${dir}/claude-wake-main.cjs`)] }],
      },
    })
    assert.equal(isSangamsOwnChange('.claude/settings.json', file, null), true, dir)
    assert.equal(splitEntries('hooks', JSON.parse(file))?.ours.length, 2, dir)
  }
})

test("a tracked file is sangam's change when, ours taken out of both sides, it equals HEAD's", () => {
  const team = { permissions: { allow: ['Bash'] }, hooks: { Stop: [{ hooks: [mine] }] } }
  const base = JSON.stringify(team, null, 2)
  const installed = JSON.stringify({
    hooks: { Stop: [{ hooks: [mine] }, { hooks: [ours('/a/dist/hooks/agent-hook-main.cjs')] }] },
    permissions: { allow: ['Bash'] },
  })
  assert.equal(isSangamsOwnChange('.claude/settings.json', installed, base), true, 'key order is no change')
  const committedOurs = hooksFile(portableHook)
  assert.equal(
    isSangamsOwnChange(
      '.claude/settings.json',
      hooksFile('/b/dist/hooks/agent-hook-main.cjs'),
      committedOurs,
    ),
    true,
    'our entry rewritten for this machine',
  )
  const edited = JSON.stringify({ ...JSON.parse(installed), permissions: { allow: [] } })
  assert.equal(isSangamsOwnChange('.claude/settings.json', edited, base), false)
})

test(".mcp.json is sangam's with only mcpServers.sangam; generated instructions and .sangam/ by what they are", () => {
  const server = { command: '/usr/bin/node', args: ['/opt/sangam/dist/mcp/mcp-main.cjs'] }
  assert.equal(
    isSangamsOwnChange('.mcp.json', JSON.stringify({ mcpServers: { sangam: server } }), null),
    true,
  )
  const two = JSON.stringify({ mcpServers: { sangam: server, db: { command: 'db-mcp' } } })
  assert.equal(isSangamsOwnChange('.mcp.json', two, null), false)
  assert.equal(
    isSangamsOwnChange('.mcp.json', two, JSON.stringify({ mcpServers: { db: { command: 'db-mcp' } } })),
    true,
  )
  assert.equal(isSangamsOwnChange('AGENTS.md', `${instructionsMarker}\n# sangam lane a\n`, null), true)
  assert.equal(isSangamsOwnChange('AGENTS.md', '# our project\n', null), false)
  assert.equal(isSangamsOwnChange('.sangam/tasks/t.md', null, null), true)
  assert.equal(isSangamsOwnChange('.sangam/tasks/t.md', null, 'tracked'), false)
})

test("a lane's copy gets main's entries of ours, after the user's own, which stay", () => {
  const lane = {
    permissions: { allow: ['Bash'] },
    hooks: { Stop: [{ hooks: [mine] }, { hooks: [ours('/old/dist/hooks/agent-hook-main.cjs')] }] },
  }
  const main = JSON.parse(hooksFile('/new/dist/hooks/agent-hook-main.cjs')) as Record<string, unknown>
  const merged = withOurEntriesOf('hooks', lane, main)
  assert.deepEqual(merged, {
    permissions: { allow: ['Bash'] },
    hooks: { Stop: [{ hooks: [mine] }, { hooks: [ours('/new/dist/hooks/agent-hook-main.cjs')] }] },
  })
  assert.deepEqual(
    withOurEntriesOf(
      'mcp',
      { mcpServers: { db: {} } },
      { mcpServers: { sangam: { command: 'sangam-mcp' } } },
    ),
    {
      mcpServers: { db: {}, sangam: { command: 'sangam-mcp' } },
    },
  )
  assert.equal(withOurEntriesOf('hooks', { hooks: 'no' }, main), null)
})

test('entries naming an absolute path are this machine’s; sangam-mcp and the CLAUDE_PROJECT_DIR form are not', () => {
  const machine = (config: Record<string, unknown>, kind: 'hooks' | 'mcp') =>
    namesMachinePath(splitEntries(kind, config)?.ours ?? [])
  assert.equal(machine(JSON.parse(hooksFile('/opt/sangam/dist/hooks/agent-hook-main.cjs')), 'hooks'), true)
  assert.equal(machine(JSON.parse(hooksFile(portableHook)), 'hooks'), false)
  const codex = {
    hooks: {
      Stop: [
        { hooks: [{ type: 'command', command: "node '/my dir/dist/hooks/agent-hook-main.cjs' codex" }] },
      ],
    },
  }
  assert.equal(machine(codex, 'hooks'), true)
  assert.equal(machine({ mcpServers: { sangam: { command: 'sangam-mcp', args: [] } } }, 'mcp'), false)
  assert.equal(machine({ mcpServers: { sangam: { command: 'C:\\node.exe', args: [] } } }, 'mcp'), true)
})

test("opencode.json is sangam's with only mcp.sangam (and the $schema init writes); a lane's copy keeps the user's config", () => {
  const ours = {
    type: 'local',
    command: ['/usr/bin/node', '/opt/sangam/dist/mcp/mcp-main.cjs'],
    enabled: true,
  }
  const created = { $schema: 'https://opencode.ai/config.json', mcp: { sangam: ours } }
  assert.equal(isSangamsOwnChange('opencode.json', JSON.stringify(created), null), true)
  const theirs = { ...created, provider: { local: { npm: '@ai-sdk/openai-compatible' } } }
  assert.equal(isSangamsOwnChange('opencode.json', JSON.stringify(theirs), null), false)
  assert.deepEqual(splitEntries('opencode-config', theirs)?.ours, [ours])
  const lane = { model: 'local/m', mcp: { docs: { type: 'remote', url: 'http://127.0.0.1:9/mcp' } } }
  assert.deepEqual(withOurEntriesOf('opencode-config', lane, theirs), {
    model: 'local/m',
    mcp: { docs: lane.mcp.docs, sangam: ours },
  })
})
