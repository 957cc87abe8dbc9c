import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { openAgentLab, transcriptLines } from '../agent-lab.ts'
import { assertAutoLeaseEnded } from '../auto-lease-ended.ts'

/**
 * The real Gemini CLI 0.61.0 with the hooks `sangam install-hooks` wrote into the project's
 * `.gemini/settings.json`: its BeforeTool hook refuses a `write_file` of a file another human
 * holds before it runs, and names the holder to the model.
 */
test('a real Gemini CLI write_file of a file another human holds is denied, and the denial names the holder', async () => {
  await using lab = await openAgentLab()
  const installed = await lab.sangamJson<{ gemini: { change: string; file: string } }>(['install-hooks'])
  assert.deepEqual(
    [installed.gemini.change, installed.gemini.file],
    ['added', join(lab.repo.path, '.gemini', 'settings.json')],
  )
  await lab.sangamJson(['claim', 'src/a.ts', '-r', 'rewriting the parser'], {
    SANGAM_USER: 'bob@example.com',
  })
  const file = join(lab.repo.path, 'src', 'a.ts')
  const run = await lab.gemini('Set a to 2 in src/a.ts.', [
    { tool: 'write_file', args: { file_path: file, content: 'export const a = 2\n' } },
    { text: 'The write was refused by a lease.' },
  ])
  assert.equal(run.code, 0, run.stderr)
  assert.equal(readFileSync(file, 'utf8'), 'export const a = 1\n', 'the file is unchanged')
  assert.match(
    transcriptLines(run.transcript, 'is leased to'),
    /src\/a\.ts is leased to bob@example\.com until .*rewriting the parser/,
  )
  const last = lab.geminiApi.requests.filter((request) => request.kind === 'main').at(-1)
  assert.match(
    JSON.stringify(last?.body),
    /"functionResponse".*src\/a\.ts is leased to bob@example\.com/,
    `the model saw the reason (hooks saw:\n${lab.heartbeats()})`,
  )
})

test('a real Gemini CLI edit of a free file goes through under an auto-lease, released when the session ends', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  const file = join(lab.repo.path, 'src', 'b.ts')
  const run = await lab.gemini('Set b to 2 in src/b.ts.', [
    {
      tool: 'replace',
      args: { file_path: file, old_string: 'b = 1', new_string: 'b = 2', instruction: 'set b' },
    },
    { text: 'Done.' },
  ])
  assert.equal(run.code, 0, run.stderr)
  assert.equal(readFileSync(file, 'utf8'), 'export const b = 2\n')
  await assertAutoLeaseEnded(lab, 'src/b.ts', 'gemini', run.sessionId)
})

test("install-hooks --uninstall takes the Gemini hooks out again, leaving the user's settings", async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  const settings = join(lab.repo.path, '.gemini', 'settings.json')
  const again = await lab.sangamJson<{ gemini: { change: string } }>(['install-hooks'])
  assert.equal(again.gemini.change, 'unchanged', 'idempotent')
  const removed = await lab.sangamJson<{ gemini: { change: string } }>(['install-hooks', '--uninstall'])
  assert.equal(removed.gemini.change, 'removed')
  assert.throws(() => readFileSync(settings, 'utf8'), /ENOENT/, 'a file that held only our hooks is gone')
})
