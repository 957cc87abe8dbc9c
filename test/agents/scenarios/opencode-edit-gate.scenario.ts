import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { openAgentLab } from '../agent-lab.ts'

/**
 * The real opencode 1.18.33 with sangam's plugin, installed by `sangam install-hooks` alone: its
 * `tool.execute.before` hands the edit to sangam's hook and throws the denial.
 */
test('a real opencode edit of a file another human holds is refused before it runs, naming the holder', async () => {
  await using lab = await openAgentLab()
  const installed = await lab.sangamJson<{ opencode: { change: string; file: string } }>(['install-hooks'])
  assert.equal(installed.opencode.change, 'added')
  assert.equal(installed.opencode.file, join(lab.repo.path, '.opencode', 'plugins', 'sangam.js'))
  const again = await lab.sangamJson<{ opencode: { change: string } }>(['install-hooks'])
  assert.equal(again.opencode.change, 'unchanged', 'idempotent')
  await lab.sangamJson(['claim', 'src/a.ts', '-r', 'rewriting the parser'], {
    SANGAM_USER: 'bob@example.com',
  })
  const file = join(lab.repo.path, 'src', 'a.ts')
  const run = await lab.opencode('Set a to 2 in src/a.ts.', [
    { tool: 'read', input: { filePath: file } },
    {
      tool: 'edit',
      input: { filePath: file, oldString: 'export const a = 1', newString: 'export const a = 2' },
    },
    { text: 'The edit was refused by a lease.' },
  ])
  assert.equal(run.code, 0, run.stderr)
  assert.equal(readFileSync(file, 'utf8'), 'export const a = 1\n', 'the file is unchanged')
  const last = lab.chat.requests.filter((request) => request.kind === 'main').at(-1)
  assert.match(
    JSON.stringify(last?.body),
    /src\/a\.ts is leased to bob@example\.com until .*rewriting the parser/,
    `the model saw the reason (opencode printed:\n${run.stdout}\n${run.stderr})`,
  )
})

test('a real opencode write of a free file goes through under an auto-lease of the opencode session; uninstall removes the plugin', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  // Kept past the session's end (which releases them by default: opencode-room.scenario.ts).
  await lab.sangamJson(['leases', '--session-end', 'keep'])
  const file = join(lab.repo.path, 'src', 'c.ts')
  const run = await lab.opencode('Add src/c.ts.', [
    { tool: 'write', input: { filePath: file, content: 'export const c = 3\n' } },
    { text: 'Done.' },
  ])
  assert.equal(run.code, 0, run.stderr)
  assert.equal(readFileSync(file, 'utf8'), 'export const c = 3\n')
  const overview = await lab.sangamJson<{
    leases: { pattern: string; holder: { vendor: string | null; sessionId: string | null } }[]
  }>(['leases'])
  assert.deepEqual(
    overview.leases.map((lease) => [lease.pattern, lease.holder.vendor, lease.holder.sessionId]),
    [['src/c.ts', 'opencode', run.sessionId]],
    `the auto-lease is the session's (hooks saw:\n${lab.heartbeats()})`,
  )
  const removed = await lab.sangamJson<{ opencode: { change: string } }>(['install-hooks', '--uninstall'])
  assert.equal(removed.opencode.change, 'removed')
  assert.equal(existsSync(join(lab.repo.path, '.opencode', 'plugins', 'sangam.js')), false)
})
