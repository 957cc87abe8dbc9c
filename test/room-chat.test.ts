import assert from 'node:assert/strict'
import type { ChildProcess } from 'node:child_process'
import { test } from 'node:test'
import { collectOutput } from './helpers/child-output.ts'
import { isolatedEnv, runCli, runCliJson, spawnCli } from './helpers/run-cli.ts'
import { tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'

/**
 * `sangam chat` end to end: the compiled CLI with piped stdin, a real repository and store, and
 * posts from other processes that the chat must show as they arrive.
 */

interface Targets {
  agents: { handle: string; vendor: string; state: string }[]
  people: { handle: string; name: string; state: string }[]
}

async function room() {
  const home = tmpDir()
  const repo = tmpGitRepo()
  const env = isolatedEnv(home.path, { SANGAM_USER: 'asha@example.com' })
  await runCliJson(['init', '--no-mcp'], { cwd: repo.path, env })
  return {
    repo,
    env,
    /** The people of the room, by handle and state; a chat is its person, never an agent (D344). */
    humans: async () => {
      const targets = await runCliJson<Targets>(['targets'], { cwd: repo.path, env })
      assert.deepEqual(
        targets.agents.filter((agent) => agent.vendor === 'human'),
        [],
        'a chat is not an agent',
      )
      return targets.people.map((person) => [person.handle, person.state])
    },
    async [Symbol.asyncDispose]() {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
}

/** A running chat: what it printed so far, and a wait for a pattern to show up in it. */
function startChat(cwd: string, env: Record<string, string | undefined>, args: readonly string[] = []) {
  const child: ChildProcess = spawnCli(['chat', ...args], { cwd, env })
  const output = collectOutput(child)
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  // A chat that does not leave is a failure, not a hung suite: killed after 20 s and reported.
  const exited = (async () => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
    const code = await closed
    clearTimeout(timer)
    return code
  })()
  return {
    child,
    exited,
    out: () => output.stdout,
    type: (line: string) => child.stdin?.write(`${line}\n`),
    /** Resolves once stdout matches; fails with what was printed after 20 s (a hang, not a timing claim). */
    async saw(pattern: RegExp): Promise<void> {
      for (let waited = 0; !pattern.test(output.stdout); waited += 50) {
        if (waited > 20_000)
          assert.fail(`chat never printed ${pattern}\nstdout: ${output.stdout}\nstderr: ${output.stderr}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
  }
}

test('chat shows recent messages, posts lines, follows other processes live, and /quit leaves offline', async () => {
  await using r = await room()
  assert.equal((await runCli(['post', 'before the chat'], { cwd: r.repo.path, env: r.env })).code, 0)
  const chat = startChat(r.repo.path, r.env)
  await chat.saw(/sangam chat: .* as asha@example.com[\s\S]*before the chat/)
  assert.deepEqual(await r.humans(), [['asha', 'online']], 'online while it runs')

  chat.type('hello from the terminal')
  await chat.saw(/asha@example.com {2}msg-[0-9a-f]{12}\n {2}hello from the terminal/)
  const read = await runCliJson<{ messages: { text: string; sender: string }[] }>(['read'], {
    cwd: r.repo.path,
    env: r.env,
  })
  assert.deepEqual(
    read.messages.map((m) => m.text),
    ['before the chat', 'hello from the terminal'],
    'the typed line was posted through post',
  )

  const other = await runCli(['post', '--to', '@human', 'from another process'], {
    cwd: r.repo.path,
    env: { ...r.env, CODEX_THREAD_ID: '01a2264c-aff5-7b22-ace8-554acdb41e6a' },
  })
  assert.equal(other.code, 0, other.stderr)
  await chat.saw(/→ @human {2}msg-[0-9a-f]{12}\n {2}from another process/)

  chat.type('/threads')
  await chat.saw(/no open threads/)
  chat.type('/help')
  await chat.saw(/\/targets +who and where/)
  chat.type('/quit')
  assert.equal(await chat.exited, 0)
  assert.deepEqual(await r.humans(), [['asha', 'offline']], 'offline once it exits')
})

test('a secret-looking line is refused with the reason, nothing is posted, and the chat keeps going', async () => {
  await using r = await room()
  const chat = startChat(r.repo.path, r.env)
  await chat.saw(/no messages yet/)
  chat.type('my token is ghp_0123456789abcdefghijklmnopqrstuvwxyzAB')
  await chat.saw(/not posted: the message text holds a secret \(github-token\)/)
  chat.type('')
  chat.type('/nonsense')
  await chat.saw(/unknown command \/nonsense: \/help lists them/)
  chat.type('still here')
  await chat.saw(/\n {2}still here/)
  chat.child.stdin?.end() // end of input leaves as /quit does
  assert.equal(await chat.exited, 0)
  const read = await runCliJson<{ messages: { text: string }[] }>(['read'], { cwd: r.repo.path, env: r.env })
  assert.deepEqual(
    read.messages.map((m) => m.text),
    ['still here'],
  )
  assert.deepEqual(await r.humans(), [['asha', 'offline']])
})

test('SIGTERM ends the chat offline; the next chat of the same human keeps the handle', async () => {
  await using r = await room()
  const first = startChat(r.repo.path, r.env, ['--recent', '0'])
  await first.saw(/sangam chat:/)
  first.child.kill('SIGTERM')
  assert.equal(await first.exited, 0)
  assert.deepEqual(await r.humans(), [['asha', 'offline']])
  const second = startChat(r.repo.path, r.env)
  await second.saw(/sangam chat:/)
  assert.deepEqual(await r.humans(), [['asha', 'online']], 'one handle, not @asha-2')
  second.type('/quit')
  assert.equal(await second.exited, 0)
})

test('chat refuses a bad --recent before it starts', async () => {
  await using r = await room()
  const run = await runCli(['chat', '--recent', '-3'], { cwd: r.repo.path, env: r.env })
  assert.equal(run.code, 2)
  assert.match(run.stderr, /--recent/)
  assert.deepEqual(await r.humans(), [['asha', 'offline']], 'a chat that never ran leaves asha as she was')
})
