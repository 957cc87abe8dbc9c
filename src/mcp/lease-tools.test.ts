import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { agentContext, connectTools } from '../../test/helpers/mcp-tools-client.ts'
import { tmpDir, tmpGitRepo } from '../../test/helpers/tmp-git-repo.ts'
import { leaseTools } from './lease-tools.ts'

const start = Date.parse('2026-11-30T10:00:00Z')

/** An MCP client talking to the lease tools as one agent session in `repo`. */
function agent(repo: string, home: string, env: Record<string, string>, clientName: string): Promise<Client> {
  return connectTools(leaseTools, agentContext({ cwd: repo, home, env, now: start, clientName }), clientName)
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as { type: string; text: string }[]
  return content.map((part) => part.text).join('\n')
}

test("a Claude Code session's claim keeps the same human's Codex out; it can ask who, and only the holder releases", async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const claude = await agent(repo.path, home.path, { CLAUDE_CODE_SESSION_ID: 'c-1' }, 'claude-code')
  const codex = await agent(repo.path, home.path, {}, 'codex-mcp-client')

  const granted = await claude.callTool({
    name: 'ctx_claim',
    arguments: { patterns: ['src/auth/**'], reason: 'auth rewrite' },
  })
  assert.equal(granted.isError, undefined)
  const claimed = granted.structuredContent as {
    granted: boolean
    leases: { holder: unknown; expiresAt: number }[]
  }
  assert.equal(claimed.granted, true)
  assert.deepEqual(claimed.leases[0]?.holder, { human: 'alice@x.dev', vendor: 'claude', sessionId: 'c-1' })
  assert.equal(claimed.leases[0]?.expiresAt, start + 2 * 3_600_000)

  const refused = await codex.callTool({
    name: 'ctx_claim',
    arguments: { patterns: ['src/auth/login.ts'], reason: 'fix' },
  })
  assert.equal((refused.structuredContent as { granted: boolean }).granted, false)
  assert.match(
    textOf(refused),
    /Not granted; do not edit these files:\n.*src\/auth\/\*\* — alice@x\.dev's claude session c-1.*"auth rewrite"/,
  )

  const who = await codex.callTool({ name: 'ctx_who_has', arguments: { path: 'src/auth/login.ts' } })
  assert.equal((who.structuredContent as { leases: unknown[] }).leases.length, 1)
  const glob = await codex.callTool({ name: 'ctx_who_has', arguments: { path: 'src/**' } })
  assert.equal((glob.structuredContent as { pattern: string }).pattern, 'src/**')

  const notTheirs = await codex.callTool({ name: 'ctx_release', arguments: { patterns: ['src/auth/**'] } })
  assert.equal(notTheirs.isError, true)
  assert.match(textOf(notTheirs), /^LEASE_CONFLICT: src\/auth\/\*\* is not yours to release/)

  const released = await claude.callTool({ name: 'ctx_release', arguments: {} })
  assert.equal((released.structuredContent as { released: unknown[] }).released.length, 1)
  const free = await codex.callTool({ name: 'ctx_who_has', arguments: { path: 'src/auth/login.ts' } })
  assert.match(textOf(free), /nobody holds src\/auth\/login\.ts/, "the CLI's words")
})

test('bad patterns are tool errors the agent can read, and the server keeps serving', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const claude = await agent(repo.path, home.path, { CLAUDE_CODE_SESSION_ID: 'c-1' }, 'claude-code')
  const outside = await claude.callTool({
    name: 'ctx_claim',
    arguments: { patterns: ['../elsewhere/**'], reason: 'x' },
  })
  assert.equal(outside.isError, true)
  assert.match(textOf(outside), /^INVALID_INPUT: .*outside this project/)
  const none = await claude.callTool({ name: 'ctx_release', arguments: { patterns: ['docs/**'] } })
  assert.match(textOf(none), /^NOT_FOUND: no live lease on docs\/\*\*/)
  const ok = await claude.callTool({
    name: 'ctx_claim',
    arguments: { patterns: ['docs/**'], reason: 'docs', ttl: '30m' },
  })
  assert.equal((ok.structuredContent as { granted: boolean }).granted, true)
})

test('ctx_claim takes its duration as the CLI writes it, and refuses what would change its meaning', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const claude = await agent(repo.path, home.path, { CLAUDE_CODE_SESSION_ID: 'c-1' }, 'claude-code')
  const claim = (args: Record<string, unknown>) =>
    claude.callTool({ name: 'ctx_claim', arguments: { patterns: ['docs/**'], reason: 'docs', ...args } })
  const granted = await claim({ ttl: '1h30m' })
  const leases = (granted.structuredContent as { leases: { expiresAt: number }[] }).leases
  assert.equal(leases[0]?.expiresAt, start + 90 * 60_000)
  assert.match(textOf(granted), /^claimed docs\/\*\* — /, "the CLI's words")

  const minutes = await claim({ ttlMinutes: 30 })
  assert.equal(minutes.isError, true, 'an ignored ttlMinutes would silently give the 2 h default')
  assert.match(textOf(minutes), /ttlMinutes was replaced by ttl/)
  const bare = await claim({ ttl: 30 })
  assert.equal(bare.isError, true, 'a bare number could be minutes or seconds')
  const words = await claim({ ttl: '30 minutes' })
  assert.match(
    textOf(words),
    /^INVALID_INPUT: the ttl must be a duration like 30m, 2h, 1h30m or 1d; got "30 minutes"/,
  )
  const long = await claim({ ttl: '8d' })
  assert.match(textOf(long), /^INVALID_INPUT: the ttl must be between 10s and 7d/)
})
