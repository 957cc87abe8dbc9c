import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { test } from 'node:test'
import { openConnection } from '../src/store/connection.ts'
import { connectMcp } from './helpers/mcp-client.ts'
import { canRunInTerminal, runInTerminal } from './helpers/pseudo-terminal.ts'
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
  readonly author: string
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
    'author',
    'recipients',
    'threadId',
    'at',
    'worktree',
    'branch',
    'head',
  ])
  assert.equal(message.text, 'who owns #repo?')
  assert.equal(message.sender, 'asha@example.com')
  assert.equal(message.author, 'unknown', 'posted by a process with no terminal')
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

test('the board: a thread a human opened is backlog; a post in it makes it doing until room.doing-hours pass', async () => {
  const w = await world()
  await using _ = w.repo
  interface Board {
    columns: Record<'backlog' | 'doing' | 'blocked' | 'done', { threadId: string; owners: string[] }[]>
  }
  const column = async (id: string) => {
    const board = await w.json<Board>(['board'])
    const found = Object.entries(board.columns).find(([, cards]) =>
      cards.some((card) => card.threadId === id),
    )
    return [found?.[0], found?.[1].find((card) => card.threadId === id)?.owners]
  }
  const { thread } = await w.json<{ thread: { id: string; participants: string[] } }>([
    'thread-open',
    '--title',
    'Fix the login redirect',
  ])
  assert.deepEqual(thread.participants, ['@human'])
  // Opening it is not working on it: nobody is.
  assert.deepEqual(await column(thread.id), ['backlog', []])
  await w.json(['post', '--thread', thread.id, 'looking at it now'])
  assert.deepEqual(await column(thread.id), ['doing', ['@human']])
  // Four hours later (the default room.doing-hours), nobody has worked on it since.
  const db = openConnection(w.database, { timeoutMs: 5000 })
  db.prepare('UPDATE room_message SET at = at - ? WHERE thread_id = ?').run(4 * 60 * 60 * 1000, thread.id)
  db.close()
  assert.deepEqual(await column(thread.id), ['backlog', []])
  await w.json(['option-set', 'room.doing-hours', '5'])
  assert.deepEqual(await column(thread.id), ['doing', ['@human']])
})

test('the board at 80 and 120 columns: every card id whole, titles told apart by their ends', {
  skip: !canRunInTerminal && 'needs util-linux script for a pty',
}, async () => {
  const w = await world()
  await using _ = w.repo
  const long = 'Merge conflict: src/room/services/deeply/nested/folder'
  const ids: string[] = []
  for (const end of ['alpha.ts', 'omega.ts']) {
    const { thread } = await w.json<{ thread: { id: string } }>(['thread-open', '--title', `${long}/${end}`])
    ids.push(thread.id)
  }
  for (const columns of [80, 120]) {
    await using run = runInTerminal(['board'], { cwd: w.repo.path, env: w.env, columns })
    assert.equal(await run.exited, 0, run.screen())
    const shown = run.lines().filter((line) => line.trim() !== '')
    for (const line of shown) assert.ok(line.length <= columns, `${columns}: ${line}`)
    for (const id of ids)
      assert.ok(
        shown.some((line) => line.includes(id)),
        `${columns}: ${id} whole`,
      )
    for (const end of ['alpha.ts', 'omega.ts'])
      assert.ok(
        shown.some((line) => line.includes(end)),
        `${columns}: the title ending ${end}`,
      )
    // 80 columns: a list, one column under another; 120: four side by side.
    assert.match(shown[0] ?? '', columns === 80 ? /^BACKLOG \(2\)$/ : /^BACKLOG \(2\) +DOING \(0\) +BLOCKED/)
  }
})

test('a handoff alert names whom it went to and what, from the handoff itself', async () => {
  const w = await world()
  await using _ = w.repo
  {
    await using mcp = await connectMcp(w.repo.path, w.env)
    const addressed = await mcp.call('room_handoff', {
      text: 'the parser rewrite is ready for review\nsee the notes in the PR',
      to: ['@human'],
      paths: ['src/parser.ts'],
    })
    assert.notEqual(addressed.isError, true, JSON.stringify(addressed.content))
    const owned = await mcp.call('room_handoff', { text: 'release notes drafted', nextOwner: '@human' })
    assert.notEqual(owned.isError, true, JSON.stringify(owned.content))
    const nobody = await mcp.call('room_handoff', { text: 'left the cache half done' })
    assert.notEqual(nobody.isError, true, JSON.stringify(nobody.content))
  }
  const { alerts } = await w.json<{ alerts: { type: string; title: string; participants: string[] }[] }>([
    'alerts',
  ])
  const handoffs = alerts.filter((alert) => alert.type === 'handoff')
  assert.deepEqual(handoffs.map((alert) => alert.title).sort(), [
    '@asha@example.com handed off to @human: release notes drafted',
    '@asha@example.com handed off to @human: the parser rewrite is ready for review',
    '@asha@example.com handed off to the room (no next owner named): left the cache half done',
  ])
  const text = await w.cli(['alerts'])
  assert.match(
    text.stdout,
    /handoff: @asha@example\.com handed off to @human: the parser rewrite is ready for review — src\/parser\.ts/,
  )
})
