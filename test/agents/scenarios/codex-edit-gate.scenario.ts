import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { openAgentLab, transcriptLines } from '../agent-lab.ts'
import { assertAutoLeaseEnded } from '../auto-lease-ended.ts'

/**
 * The real Codex 0.171.0, hooks installed and trusted by `sangam install-hooks` alone (no
 * --dangerously-bypass-hook-trust), applying a patch to a file another human holds.
 */
test('a real Codex apply_patch of a file another human holds is denied, and the denial names the holder', async () => {
  await using lab = await openAgentLab()
  const installed = await lab.sangamJson<{ codex: { trust: { status: string } } }>(['install-hooks'])
  assert.equal(installed.codex.trust.status, 'trusted', 'Codex itself confirms the trust sangam recorded')
  await lab.sangamJson(['claim', 'src/a.ts', '-r', 'rewriting the parser'], {
    SANGAM_USER: 'bob@example.com',
  })
  const run = await lab.codex('Set a to 2 in src/a.ts and add notes.txt.', [
    {
      patch:
        '*** Begin Patch\n*** Add File: notes.txt\n+notes\n*** Update File: src/a.ts\n@@\n-export const a = 1\n+export const a = 2\n*** End Patch\n',
    },
    { text: 'The patch was refused by a lease.' },
  ])
  assert.equal(run.code, 0, run.stderr)
  const file = join(lab.repo.path, 'src', 'a.ts')
  assert.equal(readFileSync(file, 'utf8'), 'export const a = 1\n', 'the file is unchanged')
  assert.equal(existsSync(join(lab.repo.path, 'notes.txt')), false, 'the whole patch was refused')
  assert.match(
    transcriptLines(run.transcript, 'PreToolUse hook'),
    /Command blocked by PreToolUse hook: src\/a\.ts is leased to bob@example\.com until .*rewriting the parser/,
  )
  const last = lab.openai.requests.filter((request) => request.kind === 'main').at(-1)
  assert.match(
    JSON.stringify(last?.body),
    /src\/a\.ts is leased to bob@example\.com/,
    'the model saw the reason',
  )
})

test('a real Codex apply_patch of a free file goes through under an auto-lease, released when the session ends', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  const run = await lab.codex('Set b to 2 in src/b.ts.', [
    {
      patch:
        '*** Begin Patch\n*** Update File: src/b.ts\n@@\n-export const b = 1\n+export const b = 2\n*** End Patch\n',
    },
    { text: 'Done.' },
  ])
  assert.equal(run.code, 0, run.stderr)
  assert.equal(readFileSync(join(lab.repo.path, 'src', 'b.ts'), 'utf8'), 'export const b = 2\n')
  await assertAutoLeaseEnded(lab, 'src/b.ts', 'codex', run.sessionId)
})
