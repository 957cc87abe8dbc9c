import assert from 'node:assert/strict'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { type AgentLab, openAgentLab, transcriptLines } from '../agent-lab.ts'

/**
 * The real Claude Code 2.1.332, hooks installed by `sangam install-hooks` alone, editing files
 * another human holds, files nobody holds, and files while the store is unreadable.
 */
const bob = 'bob@example.com'

test('a real Claude Code Write of a file another human holds is denied, and the denial names the holder', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  await lab.sangamJson(['claim', 'src/a.ts', '-r', 'rewriting the parser'], { SANGAM_USER: bob })
  const file = join(lab.repo.path, 'src', 'a.ts')
  const run = await lab.claude('Set a to 2 in src/a.ts.', [
    { tool: 'Read', input: { file_path: file } },
    { tool: 'Write', input: { file_path: file, content: 'export const a = 2\n' } },
    { text: 'The write was refused by a lease.' },
  ])
  assert.equal(run.code, 0, run.stderr)
  assert.equal(readFileSync(file, 'utf8'), 'export const a = 1\n', 'the file is unchanged')
  const result = JSON.parse(run.stdout) as { permission_denials?: { tool_name: string }[] }
  assert.deepEqual(
    result.permission_denials?.map((denial) => denial.tool_name),
    ['Write'],
  )
  assert.match(
    transcriptLines(run.transcript, 'PreToolUse:Write hook error'),
    /PreToolUse:Write hook error: .*src\/a\.ts is leased to bob@example\.com until .*rewriting the parser/,
  )
  // The model saw the reason: it is in the next request to the model.
  const last = lab.anthropic.requests.filter((request) => request.kind === 'main').at(-1)
  assert.match(JSON.stringify(last?.body), /src\/a\.ts is leased to bob@example\.com/)

  // …and so does sangam's memory, once captured.
  await lab.sangamJson(['index'])
  const search = await lab.sangamJson<{ hits: { text?: string; snippet?: string }[] }>([
    'search',
    'rewriting the parser',
  ])
  assert.ok(
    search.hits.some((hit) => /bob@example\.com/.test(`${hit.text ?? ''} ${hit.snippet ?? ''}`)),
    JSON.stringify(search.hits),
  )
})

test('an unleased file is edited, leaving an auto-lease the next Codex edit of it runs into', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  const file = join(lab.repo.path, 'src', 'b.ts')
  const go = join(lab.home, 'claude-may-finish')
  // Claude edits, then keeps its session open (a shell command waiting for a flag) while Codex tries.
  const claude = lab.claude('Set b to 2 in src/b.ts, then wait for the go-ahead.', [
    { tool: 'Read', input: { file_path: file } },
    {
      tool: 'Edit',
      input: { file_path: file, old_string: 'b = 1', new_string: 'b = 2', replace_all: false },
    },
    { tool: 'Bash', input: { command: `while [ ! -e ${go} ]; do sleep 0.2; done`, description: 'Wait' } },
    { text: 'Done.' },
  ])
  try {
    // The hook records the auto-lease before Claude writes; wait for both.
    const leases = await waitForLeases(lab, 1)
    assert.deepEqual(
      leases.map((lease) => [lease.pattern, lease.kind, lease.holder.vendor]),
      [['src/b.ts', 'auto', 'claude']],
    )
    assert.ok(
      await waitFor(() => readFileSync(file, 'utf8') === 'export const b = 2\n'),
      'Claude edited the file',
    )

    const codex = await lab.codex('Set b to 3 in src/b.ts.', [
      {
        patch:
          '*** Begin Patch\n*** Update File: src/b.ts\n@@\n-export const b = 2\n+export const b = 3\n*** End Patch\n',
      },
      { text: 'The patch was refused.' },
    ])
    assert.equal(codex.code, 0, codex.stderr)
    assert.equal(
      readFileSync(file, 'utf8'),
      'export const b = 2\n',
      `Codex did not overwrite the edit in progress; hooks saw:\n${lab.heartbeats()}`,
    )
    assert.match(
      transcriptLines(codex.transcript, 'PreToolUse hook'),
      /Command blocked by PreToolUse hook: src\/b\.ts is being edited by dev@example\.com's claude session/,
    )

    writeFileSync(go, '')
    const finished = await claude
    assert.equal(finished.code, 0, finished.stderr)
    assert.equal(
      leases[0]?.holder.sessionId,
      finished.sessionId,
      'the auto-lease was held by that Claude session',
    )
    assert.deepEqual(await waitForLeases(lab, 0), [], 'SessionEnd released the session’s auto-lease')
  } finally {
    // Whatever failed, let Claude finish before the lab is removed under it.
    writeFileSync(go, '')
    await claude
  }
})

async function waitFor(condition: () => boolean): Promise<boolean> {
  for (let attempt = 0; attempt < 150; attempt++) {
    if (condition()) return true
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return condition()
}

interface LeaseJson {
  pattern: string
  kind: string
  holder: { vendor: string | null; sessionId: string | null }
}

async function waitForLeases(lab: AgentLab, count: number): Promise<LeaseJson[]> {
  for (let attempt = 0; ; attempt++) {
    const { leases } = await lab.sangamJson<{ leases: LeaseJson[] }>(['leases'])
    if (leases.length === count || attempt === 150) return leases
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

test('with the store unreadable, a real Claude Code edit goes through (fail open) and says so', async () => {
  await using lab = await openAgentLab()
  const installed = await lab.sangamJson<{ projectId: string }>(['install-hooks'])
  await lab.sangamJson(['claim', 'src/a.ts', '-r', 'rewriting the parser'], { SANGAM_USER: bob })
  const database = join(lab.env.SANGAM_HOME ?? '', 'projects', installed.projectId, 'sangam.db')
  for (const path of [database, `${database}-wal`, `${database}-shm`]) rmSync(path, { force: true })
  writeFileSync(database, 'not a database\n'.repeat(100))
  const file = join(lab.repo.path, 'src', 'a.ts')
  const run = await lab.claude('Set a to 2 in src/a.ts.', [
    { tool: 'Read', input: { file_path: file } },
    { tool: 'Write', input: { file_path: file, content: 'export const a = 2\n' } },
    { text: 'Done.' },
  ])
  assert.equal(run.code, 0, run.stderr)
  assert.equal(readFileSync(file, 'utf8'), 'export const a = 2\n', 'the edit went through')
  const last = lab.anthropic.requests.filter((request) => request.kind === 'main').at(-1)
  assert.match(JSON.stringify(last?.body), /sangam could not check this edit against file leases/)
})
