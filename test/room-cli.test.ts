import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { test } from 'node:test'
import { openConnection } from '../src/store/connection.ts'
import { isolatedEnv, runCli, runCliJson, spawnCli } from './helpers/run-cli.ts'
import { samples } from './helpers/secret-samples.ts'
import { git, tmpGitRepo } from './helpers/tmp-git-repo.ts'

/** The room's commands as a user runs them: the compiled CLI, a real repository and data dir. */

interface Message {
  readonly id: string
  readonly text: string
  readonly recipients: readonly string[]
  readonly threadId: string | null
  readonly branch: string | null
  readonly head: string | null
  readonly worktree: string | null
  readonly sender: string
}

async function world() {
  const repo = tmpGitRepo({ commit: true })
  const env = isolatedEnv(repo.path.replace(/\/repo$/, ''), { SANGAM_USER: 'asha@example.com' })
  const init = await runCliJson<{ database: string }>(['init', '--no-mcp'], { cwd: repo.path, env })
  const cli = (args: readonly string[]) => runCli(args, { cwd: repo.path, env })
  const json = <T>(args: readonly string[]) => runCliJson<T>(args, { cwd: repo.path, env })
  const read = async () => (await json<{ messages: Message[] }>(['read', '--limit', '500'])).messages
  return { repo, env, database: init.database, cli, json, read }
}

test('post and read keep the contract: sender, recipients, git context; the json shape is exact', async () => {
  const w = await world()
  await using _ = w.repo
  const { message } = await w.json<{ message: Message }>(['post', '--to', '@human', 'who owns', '#repo?'])
  assert.deepEqual(Object.keys(message), [
    'id',
    'kind',
    'topic',
    'text',
    'sender',
    'recipients',
    'threadId',
    'at',
    'worktree',
    'branch',
    'head',
  ])
  assert.equal(message.text, 'who owns #repo?')
  assert.equal(message.sender, 'asha@example.com')
  assert.deepEqual(message.recipients, ['@human', '#repo'])
  assert.equal(message.branch, 'main')
  assert.equal(message.head, git(w.repo.path, 'rev-parse', 'HEAD'))
  assert.deepEqual(
    (await w.read()).map((m) => m.id),
    [message.id],
  )
})

test('empty, oversized and secret-bearing posts are refused and store nothing', async () => {
  const w = await world()
  await using _ = w.repo
  const secret = samples.github[0] ?? ''
  for (const [text, why] of [
    ['   ', /needs some text/],
    ['x'.repeat(4001), /at most 4,000 characters; this one has 4,001/],
    [`the token is ${secret}`, /the message text holds a secret \(github-token\); nothing was stored/],
  ] as const) {
    const run = await w.cli(['post', text])
    assert.equal(run.code, 2, run.stderr)
    assert.match(run.stderr, why)
  }
  assert.deepEqual(await w.read(), [])
  for (const file of [w.database, `${w.database}-wal`]) {
    if (existsSync(file)) assert.ok(!readFileSync(file).includes(secret), `${file} holds no secret`)
  }
})

test('unknown recipients fail closed naming close matches; mentions in code are not recipients', async () => {
  const w = await world()
  await using _ = w.repo
  const unknown = await w.cli(['post', '--to', '#rep', 'hello'])
  assert.equal(unknown.code, 2)
  assert.match(unknown.stderr, /nobody in the room is called "#rep": did you mean #repo\?/)
  const mention = await w.cli(['post', 'ask @nobody-here'])
  assert.equal(mention.code, 2)
  assert.match(mention.stderr, /"@nobody-here"/)
  const code = ['fix this:', '```c', '#include <stdio.h>', '/** @param x */', '```', 'and `@param y`'].join(
    '\n',
  )
  const { message } = await w.json<{ message: Message }>(['post', code])
  assert.deepEqual(message.recipients, [])
  assert.equal((await w.read()).length, 1)
})

test('a closed thread refuses posts; a human-loop thread has @human and shows blocked on the board', async () => {
  const w = await world()
  await using _ = w.repo
  const { thread } = await w.json<{ thread: { id: string; participants: string[] } }>([
    'thread-open',
    '--title',
    'Schema decision',
    '--audience',
    'human-loop',
    '--path',
    'src/schema.ts',
  ])
  assert.deepEqual(thread.participants, ['@human'])
  const board = await w.json<{
    columns: Record<string, { threadId: string }[]>
    lanes: unknown[]
    lock: unknown
    lanesError: unknown
  }>(['board'])
  assert.deepEqual(Object.keys(board.columns), ['backlog', 'doing', 'blocked', 'done'])
  assert.deepEqual([board.lanes, board.lock, board.lanesError], [[], null, null], 'no lanes, nothing extra')
  assert.equal(board.columns.blocked?.[0]?.threadId, thread.id)
  const text = await w.cli(['board'])
  assert.match(text.stdout, /BLOCKED \(1\)/)
  // Reading the board writes nothing: no thread changes, nothing queued for the team.
  const snapshot = () => {
    const db = openConnection(w.database, { readOnly: true, timeoutMs: 5000 })
    try {
      return JSON.stringify([
        db.prepare('SELECT * FROM room_thread').all(),
        db.prepare('SELECT count(*) AS n FROM record_outbox').get(),
        db.prepare('SELECT count(*) AS n FROM room_message').get(),
      ])
    } finally {
      db.close()
    }
  }
  const before = snapshot()
  await w.json(['board'])
  await w.cli(['board'])
  assert.equal(snapshot(), before)
  const { message } = await w.json<{ message: Message }>(['post', '--thread', thread.id, 'use v2'])
  assert.equal(message.threadId, thread.id)
  await w.json(['thread-close', thread.id])
  const refused = await w.cli(['post', '--thread', thread.id, 'one more'])
  assert.equal(refused.code, 2)
  assert.match(refused.stderr, /is closed and takes no more posts/)
  const threads = await w.json<{ threads: { status: string }[] }>(['threads', '--all'])
  assert.deepEqual(
    threads.threads.map((t) => t.status),
    ['closed'],
  )
  assert.deepEqual((await w.json<{ threads: unknown[] }>(['threads'])).threads, [])
  assert.equal((await w.read()).length, 1)
})

test('a post killed mid-write leaves the store intact with the message once or not at all; a retry does not duplicate', async () => {
  const w = await world()
  await using _ = w.repo
  const delays = [30, 80, 120, 160, 200, 240, 280, 330, 400, 500]
  for (const [i, delay] of delays.entries()) {
    const text = `killed post ${i}`
    const child = spawnCli(['post', text], { cwd: w.repo.path, env: w.env })
    // Listened for at once: a post faster than the delay has closed before the kill.
    const closed = new Promise((resolve) => child.once('close', resolve))
    await new Promise((resolve) => setTimeout(resolve, delay))
    child.kill('SIGKILL')
    await closed
    const before = (await w.read()).filter((m) => m.text === text).length
    assert.ok(before <= 1, `${text}: at most once, found ${before}`)
    const retry = await w.cli(['post', text])
    assert.equal(retry.code, 0, retry.stderr)
    assert.equal((await w.read()).filter((m) => m.text === text).length, 1, `${text}: once after the retry`)
  }
  const db = openConnection(w.database, { readOnly: true, timeoutMs: 5000 })
  try {
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok')
    const queued = db
      .prepare("SELECT count(*) AS n FROM record_outbox WHERE type = 'room.message'")
      .get() as {
      n: number
    }
    assert.equal(queued.n, delays.length, 'each message queued for the team once')
  } finally {
    db.close()
  }
})
