import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import { hookWorkDir } from '../src/config/data-paths.ts'
import { readLeaseLog } from '../src/leases/store/lease-table.ts'
import { readStore } from './helpers/read-store.ts'
import { runCli } from './helpers/run-cli.ts'
import { holdWriteLock } from './helpers/store-lock.ts'
import { type Machine, syncWorld } from './helpers/sync-world.ts'
import { startProxy } from './helpers/tcp-proxy.ts'
import { eventually } from './helpers/up-process.ts'
import { claudeEdit, runAgentHook, sessionEvent } from './hooks-agent-run.ts'

/**
 * Issue 19 item 7 against a real `sangam serve`: hooks that gave up on a server that does not
 * answer in time (a proxy holding their requests) lose nothing. The daemon pushes what they kept
 * once the server answers again, and the other machine sees it.
 */
after(killAllServes)

interface LeasesJson {
  leases: { pattern: string; kind: string; holder: { sessionId: string | null } }[]
}

const editor = 'c1a0de00-0000-4000-8000-0000000000e1'
const ender = 'c1a0de00-0000-4000-8000-0000000000e2'

function leaseLog(machine: Machine, pattern: string): string[] {
  return readStore(machine.database, (db) =>
    readLeaseLog(db, 0, ['granted', 'renewed', 'released', 'session-ended'], 1000)
      .filter((entry) => entry.pattern === pattern)
      .map((entry) => entry.action),
  )
}

test('an auto-lease and a session end the server did not answer in time reach it afterwards, once, and the other machine sees them', async () => {
  await using world = await syncWorld()
  await using proxy = await startProxy(world.server.url)
  const { a, b } = world
  await a.cliJson(['init', '--no-mcp', '--server', proxy.url])
  const line = (await runCli(['connection'], { cwd: a.repo, env: a.env })).stdout
  const joined = await b.cli(['join'], line)
  assert.equal(joined.code, 0, joined.stderr)
  const hook = (payload: unknown) => runAgentHook('claude', payload, { cwd: a.repo, env: a.env })

  // The session that will end holds a lease, claimed from inside it while the server answers.
  const claimed = await runCli(['claim', 'src/ended.ts', '--reason', 'ending soon'], {
    cwd: a.repo,
    env: { ...a.env, CLAUDE_CODE_SESSION_ID: ender },
  })
  assert.equal(claimed.code, 0, claimed.stderr)

  proxy.stall(true)
  const edit = await hook(claudeEdit(a.repo, join(a.repo, 'src', 'late.ts'), editor))
  assert.equal(edit.code, 0, edit.stderr)
  assert.equal(edit.output?.hookSpecificOutput?.permissionDecision, undefined, 'failing open')
  assert.match(
    edit.output?.hookSpecificOutput?.additionalContext ?? '',
    /auto-lease was not recorded in time; the edit is allowed, and sangam records the lease afterwards/,
  )
  assert.match(edit.stderr, /kept and done afterwards: the auto-lease of this edit's file \(.+\)/)
  const end = await hook(sessionEvent(a.repo, 'SessionEnd', ender))
  assert.equal(end.code, 0, end.stderr)
  assert.match(end.stderr, /kept and done afterwards: .*the release of the session's leases \(.+\)/)
  // The editor's session starts while another process holds a's store: its presence is kept too.
  const lock = await holdWriteLock(a.database)
  const start = await hook(sessionEvent(a.repo, 'SessionStart', editor))
  await lock.release()
  assert.match(start.stderr, /kept and done afterwards: the session's presence \(online\)/)
  // The hooks ended, so their held requests are dropped, never sent on: the server never saw them.
  await eventually(() => proxy.stalled() === 0, 15_000, 'the held requests to close')

  proxy.stall(false)
  await using _upA = a.up()
  await using _upB = b.up()
  await eventually(
    async () => {
      const onB = (await b.cliJson<LeasesJson>(['leases'])).leases
      const agents = (await b.cliJson<{ agents: { sessionId: string; state: string }[] }>(['targets'])).agents
      return (
        JSON.stringify(onB.map((lease) => [lease.pattern, lease.kind, lease.holder.sessionId])) ===
          JSON.stringify([['src/late.ts', 'auto', editor]]) &&
        agents.some((agent) => agent.sessionId === editor && agent.state === 'online')
      )
    },
    60_000,
    "machine b to see the late auto-lease, the ended session's lease gone and the kept presence",
  )
  await eventually(() => leaseLog(b, 'src/ended.ts').length === 2, 30_000, 'the release on b')
  assert.deepEqual(leaseLog(b, 'src/late.ts'), ['granted'], 'granted once, by the late push alone')
  assert.deepEqual(leaseLog(b, 'src/ended.ts').sort(), ['granted', 'released'], 'released once')
  assert.deepEqual(
    readdirSync(hookWorkDir(a.projectDir)).filter((name) => name.startsWith('work.')),
    [],
    'nothing left to do',
  )
})
