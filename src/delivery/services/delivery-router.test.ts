import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import type { AuthorKind } from '../../room/protocol/message.ts'
import { loadDirectory } from '../../room/services/directory.ts'
import { post } from '../../room/services/post.ts'
import { recordPresence } from '../../room/services/presence.ts'
import type { RoomScope } from '../../room/services/room-scope.ts'
import { openThread } from '../../room/services/threads.ts'
import { insertMessage } from '../../room/store/message-table.ts'
import { ManualClock } from '../../shared/clock.ts'
import { silentLogger } from '../../shared/logger.ts'
import { systemRandom } from '../../shared/random.ts'
import type { Db } from '../../store/db.ts'
import { pendingDeliveries } from '../store/delivery-ledger.ts'
import { DeliveryRouter } from './delivery-router.ts'

/**
 * What the router takes into the ledger (`scan`), on a real SQLite file: which tags it weighs
 * (D273: every one posted since the store had its ledger, whoever looks first) and which sessions a
 * post into a thread reaches as participants (D272). Nothing here starts a turn.
 */

const machine = 'm_0000000000000001'
const laneOne = '/w/lane-one'
const laneTwo = '/w/lane-two'
const created = Date.parse('2026-12-02T04:00:00Z')

async function world() {
  const dir = tmpDir()
  const clock = new ManualClock(created)
  const db = openDatabaseFile(join(dir.path, 'sangam.db'), { clock })
  for (const [vendor, sessionId, worktree] of [
    ['claude', 's1', laneOne],
    ['codex', 's2', laneOne],
    ['claude', 's3', laneTwo],
  ] as const)
    recordPresence(
      db,
      { vendor, sessionId, human: 'ana', worktree, branch: null, machine, state: 'idle' },
      clock.now(),
    )
  clock.advance(1000)
  const scope = (
    actor: { vendor: 'claude' | 'codex' | null; sessionId: string | null },
    author: AuthorKind,
    worktree = laneOne,
  ): RoomScope => {
    const directory = loadDirectory(db, { machine, worktrees: [laneOne, laneTwo] })
    const sender =
      actor.vendor === null
        ? 'ana'
        : (directory.agents.find((agent) => agent.sessionId === actor.sessionId)?.handle ??
          `${actor.vendor}-of-ana`)
    return {
      db,
      clock,
      random: systemRandom,
      directory,
      poster: {
        sender,
        actor: { human: 'ana', ...actor },
        author,
        git: { worktree, branch: null, head: null },
      },
    }
  }
  const router = () =>
    new DeliveryRouter({
      db,
      projectDir: dir.path,
      machine,
      worktrees: [laneOne, laneTwo],
      fallbackCwd: laneOne,
      clock,
      log: silentLogger,
      pid: process.pid,
      places: { path: '', home: dir.path, nodeBinDir: null, env: {} },
      vendorEnv: {},
    })
  return {
    db,
    clock,
    scope,
    router,
    /** The ledger's pending rows of one message: `session:mode`. */
    rowsOf: (messageId: string) => rowsOf(db, messageId),
    async [Symbol.asyncDispose]() {
      db.close()
      await dir[Symbol.asyncDispose]()
    },
  }
}

function rowsOf(db: Db, messageId: string): string[] {
  return pendingDeliveries(db)
    .filter((row) => row.messageId === messageId)
    .map((row) => `${row.sessionId}:${row.mode}:${row.senderKind}`)
    .sort()
}

const plain = { to: [], kind: 'message', topic: null, threadId: null } as const

test('the first tag in a fresh store, posted before any process looked, is weighed by whoever looks first, however late; the history from before the store is not', async () => {
  await using w = await world()
  const person = w.scope({ vendor: null, sessionId: null }, 'human')
  const first = post(person, { ...plain, text: '@claude-lane-one please rebase' })
  // The team's history, pulled into this new store: posted before it had its ledger.
  insertMessage(
    w.db,
    { ...first, id: 'msg-000000history', text: 'old news', at: created - 60_000, author: 'human' },
    41,
  )
  w.clock.advance(2 * 60 * 60_000)
  w.router().scan()
  assert.deepEqual(w.rowsOf(first.id), ['s1:handle:human'])
  assert.deepEqual(w.rowsOf('msg-000000history'), [])
  // Another process looking after it adds nothing: the ledger's key.
  w.router().scan()
  assert.equal(pendingDeliveries(w.db).length, 1)
})

test("a post into a thread reaches its participants' sessions, never back to the poster, as thread routing", async () => {
  await using w = await world()
  const person = w.scope({ vendor: null, sessionId: null }, 'human')
  const thread = openThread(person, {
    title: 'who owns the schema',
    reason: null,
    audience: 'agents',
    lifetime: 'durable',
    participants: ['#lane-one', '@claude-lane-two'],
    paths: [],
  })
  const router = w.router()
  router.scan()
  const inThread = { ...plain, threadId: thread.id }

  // An agent session in lane one: its neighbour and the other participant, not itself.
  const bySession = post(w.scope({ vendor: 'claude', sessionId: 's1' }, 'agent'), {
    ...inThread,
    text: 'I take the migration',
  })
  // An agent with no session id (Codex's MCP server): none of ana's sessions in lane one, any of
  // which may have posted it.
  const bare = post(w.scope({ vendor: 'codex', sessionId: null }, 'agent'), {
    ...inThread,
    text: 'and I the tests',
  })
  // A person: every participant's session; a mention still names its session by handle.
  const typed = post(person, { ...inThread, text: 'fine by me, @claude-lane-two reviews' })
  router.scan()
  assert.deepEqual(w.rowsOf(bySession.id), ['s2:thread:agent', 's3:thread:agent'])
  assert.deepEqual(w.rowsOf(bare.id), ['s3:thread:agent'])
  assert.deepEqual(w.rowsOf(typed.id), ['s1:thread:human', 's2:thread:human', 's3:handle:human'])
})
