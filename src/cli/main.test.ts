import assert from 'node:assert/strict'
import { PassThrough } from 'node:stream'
import { test } from 'node:test'
import { CommanderError } from 'commander'
import { readEnvironment } from '../config/environment.ts'
import { ManualClock } from '../shared/clock.ts'
import { createLogger } from '../shared/logger.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import type { CommandContext, CommandRun, CommandSpec } from './command.ts'
import { defineInput, flag, integer, words } from './command-input.ts'
import { buildProgram } from './main.ts'

const input = defineInput({
  arguments: { words: words('words', 'words', { required: false }) },
  options: { loud: flag('--loud', 'louder'), times: integer('--times <n>', 'how often', { min: 1, max: 9 }) },
})

/** Two commands whose implementations only record that they were loaded, and what they ran with. */
function fixture(
  run: CommandRun<typeof input> = async (_ctx, args, options) => ({
    json: { args, options },
    text: args.words.join(' '),
  }),
) {
  const loaded: string[] = []
  const spec = (name: string): CommandSpec<typeof input> => ({
    name,
    summary: `the ${name} command`,
    input,
    load: async () => {
      loaded.push(name)
      return { run }
    },
  })
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8')
  })
  const ctx: CommandContext = {
    env: readEnvironment({ HOME: '/nonexistent' }),
    cwd: '/nonexistent',
    clock: new ManualClock(0),
    log: createLogger(stderr, 'silent'),
    stdin: new PassThrough(),
    stdout,
    stderr,
    stopSignal: new AbortController().signal,
    cliEntry: '/nonexistent/main.js',
  }
  let exitCode: number | null = null
  const program = buildProgram([spec('alpha'), spec('beta')], ctx, {
    setExitCode: (code) => {
      exitCode = code
    },
    onLongRunning: () => {},
  })
  return {
    loaded,
    parse: (argv: readonly string[]) => program.parseAsync(argv, { from: 'user' }),
    out: () => out,
    exitCode: () => exitCode,
  }
}

test('--help and --version load no implementation', async () => {
  for (const argv of [['--help'], ['--version'], ['beta', '--help']]) {
    const cli = fixture()
    await assert.rejects(cli.parse(argv), (error) => error instanceof CommanderError && error.exitCode === 0)
    assert.deepEqual(cli.loaded, [], `sangam ${argv.join(' ')}`)
    assert.notEqual(cli.out(), '')
  }
})

test('a usage error is reported before any implementation loads', async () => {
  for (const argv of [['gamma'], ['alpha', '--quiet']]) {
    const cli = fixture()
    await assert.rejects(cli.parse(argv), (error) => error instanceof CommanderError && error.exitCode !== 0)
    assert.deepEqual(cli.loaded, [], `sangam ${argv.join(' ')}`)
  }
})

test('a command loads only its own implementation, and prints what it returns', async () => {
  const cli = fixture()
  await cli.parse(['beta', 'one', 'two', '--json'])
  assert.deepEqual(cli.loaded, ['beta'])
  assert.deepEqual(JSON.parse(cli.out()), {
    args: { words: ['one', 'two'] },
    options: { json: true, loud: false },
  })
  assert.equal(cli.exitCode(), 0)
})

test('options reach the command parsed to their declared types', async () => {
  const cli = fixture()
  await cli.parse(['alpha', '--loud', '--times', '3', '--json'])
  assert.deepEqual(JSON.parse(cli.out()).options, { json: true, loud: true, times: 3 })
})

test('a refused option value is a usage error naming its flag, before any implementation loads', async () => {
  for (const value of ['0x10', '1e1', '10', '-1', '']) {
    const cli = fixture()
    await assert.rejects(
      cli.parse(['alpha', `--times=${value}`]),
      (error) =>
        error instanceof SangamError &&
        error.code === ErrorCode.Usage &&
        error.message.startsWith('--times takes a whole number from 1 to 9'),
      value,
    )
    assert.deepEqual(cli.loaded, [], value)
  }
})

test('an argument with a NUL byte is refused', async () => {
  const cli = fixture()
  await assert.rejects(cli.parse(['alpha', 'a\u0000b']), /<words> contains a NUL byte/)
  assert.deepEqual(cli.loaded, [])
})

test("a command's failure reaches the caller as it was thrown", async () => {
  const failure = new SangamError(ErrorCode.Usage, 'no')
  const cli = fixture(async () => {
    throw failure
  })
  await assert.rejects(cli.parse(['alpha', '--json']), (error) => error === failure)
  assert.deepEqual(cli.loaded, ['alpha'])
  assert.equal(cli.out(), '')
})
