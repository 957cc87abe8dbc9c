import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { type AgentLab, openAgentLab, transcriptLines } from '../agent-lab.ts'

/**
 * The room's one-actor-per-worktree rule at `refuse`, with the real CLIs: a Codex session is at
 * work in the worktree (its own hooks recorded its presence), and a real Claude Code session's
 * edit there is denied before it happens, naming the rule and the Codex session.
 */

interface Agent {
  readonly handle: string
  readonly vendor: string
  readonly sessionId: string
  readonly state: string
}

async function codexOnline(lab: AgentLab): Promise<Agent | null> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const { agents } = await lab.sangamJson<{ agents: Agent[] }>(['targets'])
    const codex = agents.find((agent) => agent.vendor === 'codex' && agent.state === 'online')
    if (codex !== undefined) return codex
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return null
}

test('with one-actor-per-worktree at refuse, a real Claude Code edit is denied while a Codex session works in the worktree', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  await lab.sangamJson(['rules', 'set', 'one-actor-per-worktree', 'refuse'])
  const go = join(lab.home, 'codex-may-finish')
  // Codex runs a turn that waits for a flag, so its session is online in the worktree meanwhile.
  const codex = lab.codex('Wait for the go-ahead.', [
    { shell: `while [ ! -e ${go} ]; do sleep 0.2; done` },
    { text: 'Done.' },
  ])
  try {
    const present = await codexOnline(lab)
    assert.ok(present, 'the Codex session is online in the room')
    const file = join(lab.repo.path, 'src', 'b.ts')
    const run = await lab.claude('Set b to 2 in src/b.ts.', [
      { tool: 'Write', input: { file_path: file, content: 'export const b = 2\n' } },
      { text: 'The write was refused by a house rule.' },
    ])
    assert.equal(run.code, 0, run.stderr)
    assert.equal(readFileSync(file, 'utf8'), 'export const b = 1\n', 'the file is unchanged')
    const result = JSON.parse(run.stdout) as { permission_denials?: { tool_name: string }[] }
    assert.deepEqual(
      result.permission_denials?.map((denial) => denial.tool_name),
      ['Write'],
    )
    const named = new RegExp(
      `one-actor-per-worktree is at refuse: @${present.handle} \\(codex session ${present.sessionId}, online\\)`,
    )
    assert.match(transcriptLines(run.transcript, 'PreToolUse:Write hook error'), named)
    // The model was told why: the reason is in its next request.
    const last = lab.anthropic.requests.filter((request) => request.kind === 'main').at(-1)
    assert.match(JSON.stringify(last?.body), /one-actor-per-worktree is at refuse/)
  } finally {
    writeFileSync(go, '')
    const finished = await codex
    assert.equal(finished.code, 0, finished.stderr)
  }
})
