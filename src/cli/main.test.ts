import assert from 'node:assert/strict'
import { PassThrough } from 'node:stream'
import { test } from 'node:test'
import { CommanderError } from 'commander'
import { readEnvironment } from '../config/environment.ts'
import { ManualClock } from '../shared/clock.ts'
import { createLogger } from '../shared/logger.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import type { CommandContext, CommandRun, CommandSpec } from './command.ts'
import { buildProgram } from './main.ts'

/** Two commands whose implementations only record that they were loaded, and what they ran with. */
function fixture(run: CommandRun = async (_ctx, args) => ({ json: { args }, text: args.join(' ') })) {
  const loaded: string[] = []
  const spec = (name: string): CommandSpec => ({
    name,
    summary: `the ${name} command`,
    arguments: [{ name: 'words', description: 'words', variadic: true }],
    options: [{ flags: '--loud', description: 'louder' }],
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
  assert.deepEqual(JSON.parse(cli.out()), { args: ['one', 'two'] })
  assert.equal(cli.exitCode(), 0)
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
