import assert from 'node:assert/strict'
import { test } from 'node:test'
import { displayWidth } from '../src/cli/word-wrap.ts'
import { canRunInTerminal, runInTerminal } from './helpers/pseudo-terminal.ts'
import { isolatedEnv, runCli, runCliJson } from './helpers/run-cli.ts'
import { tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'

/**
 * sangam at a real terminal (a pseudo-terminal, test/helpers/pseudo-terminal.ts): what others wrote
 * shows escaped in `chat` as elsewhere (D290), sangam's lines break at spaces to the terminal's
 * width (D297), and `join` does not show the key it reads (D296).
 */

async function project() {
  const home = tmpDir()
  const repo = tmpGitRepo({ commit: true })
  const env = isolatedEnv(home.path, { SANGAM_USER: 'asha@example.com' })
  await runCliJson(['init', '--no-mcp'], { cwd: repo.path, env })
  return {
    repo,
    env,
    async [Symbol.asyncDispose]() {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
}

/** The terminal's lines: its escape sequences (readline's, sangam's own) taken out, CR LF as LF. */
function shownLines(screen: string): string[] {
  return (
    screen
      // biome-ignore lint/suspicious/noControlCharactersInRegex: a terminal's own sequences are removed
      .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '')
      .replaceAll('\r\n', '\n')
      .split('\n')
      .map((line) => line.slice(line.lastIndexOf('\r') + 1))
  )
}

const words = (text: string): string[] => text.split(/\s+/).filter((word) => word !== '')

function assertFits(what: string, lines: readonly string[], columns: number): void {
  const wide = lines.filter((line) => displayWidth(line) > columns)
  assert.deepEqual(wide, [], `${what}: lines wider than ${columns} columns`)
}

const needsTerminal = { skip: !canRunInTerminal && 'needs util-linux script for a pty' }

test(
  'chat at a terminal shows what others post with its control characters escaped, and wraps at spaces',
  needsTerminal,
  async () => {
    await using p = await project()
    await using chat = runInTerminal(['chat'], { cwd: p.repo.path, env: p.env, columns: 80 })
    await chat.saw(/> /)
    const attack = 'innocent\x1b[1A\x1b[2K\r\x1b[2J\x1b]0;pwned\x07 \u009b31m \u202eevil'
    const posted = await runCli(['post', attack], {
      cwd: p.repo.path,
      env: { ...p.env, SANGAM_USER: 'mallory@example.com' },
    })
    assert.equal(posted.code, 0, posted.stderr)
    const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ')
    await runCli(['post', long], { cwd: p.repo.path, env: { ...p.env, SANGAM_USER: 'mallory@example.com' } })
    await chat.saw(/word39/)
    const screen = chat.screen()
    assert.match(screen, /innocent\\e\[1A\\e\[2K\\r\\e\[2J\\e\]0;pwned\\u0007 \\u009b31m \\u202eevil/)
    for (const raw of ['\x1b[2J', '\x1b]0;pwned', '\u009b', '\u202e', '\x1b[1A'])
      assert.ok(!screen.includes(raw), `the terminal was sent ${JSON.stringify(raw)}`)
    const lines = shownLines(screen)
    assertFits('chat', lines, 80)
    const body = lines.filter((line) => /\bword\d+\b/.test(line))
    assert.ok(body.length >= 2, 'the long message took more than one line')
    assert.deepEqual(words(body.join(' ')), words(long), 'no word was cut')
    assert.ok(
      body.every((line) => line.startsWith('  ')),
      'its continuation lines stay indented under its header',
    )
    chat.type('/quit\r')
    assert.equal(await chat.exited, 0)
  },
)

test(
  'at an 80-column terminal, rules, targets, --help and the init question break at spaces',
  needsTerminal,
  async () => {
    await using p = await project()
    for (const args of [['rules'], ['targets'], ['--help'], ['lane', '--help'], ['options']]) {
      const piped = await runCli(args, { cwd: p.repo.path, env: p.env })
      await using run = runInTerminal(args, { cwd: p.repo.path, env: p.env, columns: 80 })
      assert.equal(await run.exited, 0, run.screen())
      const lines = shownLines(run.screen())
      assertFits(`sangam ${args.join(' ')}`, lines, 80)
      assert.deepEqual(
        words(lines.join('\n')),
        words(piped.stdout),
        `sangam ${args.join(' ')}: the same words`,
      )
    }
    // init asks before it registers the MCP server; readline draws the question itself.
    await using init = runInTerminal(['init'], { cwd: p.repo.path, env: p.env, columns: 80 })
    await init.saw(/\[Y\/n\] /)
    const question = shownLines(init.screen())
    assertFits('init question', question, 80)
    assert.ok(
      words(question.join(' ')).includes('server'),
      `the question reads whole: ${question.join('\n')}`,
    )
    init.type('n\r')
    assert.equal(await init.exited, 0, init.screen())
  },
)

test('join at a terminal reads the pasted connection line without showing it', needsTerminal, async () => {
  await using p = await project()
  const key = 'DoNotShowThisKey_0123456789abcdefghijklmnopq'
  // Port 9 (discard) on this machine: nothing answers, so join fails after reading the line.
  const line = `http://127.0.0.1:9#prj_0123456789abcdef#${key}`
  await using join = runInTerminal(['join'], { cwd: p.repo.path, env: p.env })
  await join.saw(/paste the connection line/)
  join.type(`${line}\r`)
  await join.exited
  assert.ok(!join.screen().includes(key), `the terminal showed the key:\n${join.screen()}`)
  assert.match(join.screen(), /connection line|team server|127\.0\.0\.1/)
})
