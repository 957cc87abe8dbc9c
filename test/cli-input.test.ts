import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { test } from 'node:test'
import { recallProject } from './helpers/recall-project.ts'
import { runCli } from './helpers/run-cli.ts'

/** The real CLI refusing what it is given: which flag, which code, and `--json` on stdout. */

interface JsonError {
  readonly error: { readonly code: string; readonly message: string }
}

test('a refused value names its own flag, with --json on stdout as well as on stderr', async () => {
  await using project = await recallProject()
  const cli = { cwd: project.repo.path, env: project.env }
  const cases: [string[], RegExp][] = [
    [['search', 'x', '--until', 'soon'], /^--until must be an ISO date .*got "soon"$/],
    [['search', 'x', '--since', '2026-02-30'], /^--since must be an ISO date .*got "2026-02-30"$/],
    [['search', 'x', '--until', '2026-04-31T10:00:00Z'], /^--until must be an ISO date/],
    [
      ['search', 'x', '--limit=0x10'],
      /^--limit takes a whole number from 1 to 200, in decimal digits; got "0x10"$/,
    ],
    [['search', 'x', '--limit', '1e1'], /^--limit takes a whole number/],
    [['search', 'x', '--limit', '0'], /^--limit takes a whole number/],
    [['claim', 'a.ts', '-r', 'x', '--ttl', '1y'], /^--ttl takes a duration/],
    [['leases', '--claim-ttl', 'soon'], /^--claim-ttl takes a duration/],
    [['serve', '--port', '0x50'], /^--port takes a whole number from 0 to 65535/],
  ]
  for (const [args, message] of cases) {
    const result = await runCli([...args, '--json'], cli)
    assert.equal(result.code, 2, args.join(' '))
    const { error } = JSON.parse(result.stdout) as JsonError
    assert.equal(error.code, 'USAGE', args.join(' '))
    assert.match(error.message, message, args.join(' '))
    assert.match(result.stderr, /^sangam: --/, args.join(' '))
  }
})

test("commander's own usage errors print {error} on stdout with --json too", async () => {
  await using project = await recallProject()
  const cli = { cwd: project.repo.path, env: project.env }
  for (const args of [['search'], ['search', 'x', '--no-such-flag'], ['thread']]) {
    const result = await runCli([...args, '--json'], cli)
    assert.equal(result.code, 2, args.join(' '))
    const { error } = JSON.parse(result.stdout) as JsonError
    assert.equal(error.code, 'USAGE', args.join(' '))
    assert.match(error.message, /^(missing required argument|unknown option)/, args.join(' '))
  }
})

test('a huge value is echoed back bounded, never whole', async () => {
  await using project = await recallProject()
  const cli = { cwd: project.repo.path, env: project.env }
  const huge = '!'.repeat(100_000)
  for (const args of [['search', huge], ['search', 'x', '--since', huge], [`--${'x'.repeat(100_000)}`]]) {
    const result = await runCli([...args, '--json'], cli)
    assert.equal(result.code, 2)
    assert.ok(result.stderr.length < 3000, `stderr is ${result.stderr.length} characters`)
    assert.ok(result.stdout.length < 3000, `stdout is ${result.stdout.length} characters`)
  }
})

/**
 * Another process holding the database's lock until it is ended: `exclusive` also keeps readers
 * out (SQLite's exclusive locking mode), otherwise only writers wait.
 */
async function lockHolder(database: string, exclusive: boolean): Promise<ChildProcess & AsyncDisposable> {
  const script = `
    const db = new (require('node:sqlite').DatabaseSync)(${JSON.stringify(database)})
    ${exclusive ? "db.exec('PRAGMA locking_mode = EXCLUSIVE')" : ''}
    db.exec('BEGIN EXCLUSIVE')
    process.stdout.write('locked\\n')
    process.stdin.resume()
    process.stdin.on('end', () => process.exit(0))`
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] })
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer]
  assert.equal(chunk.toString().trim(), 'locked')
  return Object.assign(child, {
    [Symbol.asyncDispose]: async () => {
      child.stdin?.end()
      if (child.exitCode === null) await once(child, 'exit')
    },
  })
}

test('a read command on a locked store answers STORE_BUSY within its budget, not after the writer', async () => {
  await using project = await recallProject()
  const cli = { cwd: project.repo.path, env: project.env, timeoutMs: 30_000 }
  {
    await using _holder = await lockHolder(project.database, true)
    for (const args of [['search', 'x'], ['thread', 'ev_x'], ['brief'], ['who-has', 'a.ts']]) {
      const result = await runCli([...args, '--json'], cli)
      // Before the budget, opening waited 60 s for the lock and the runner killed it (exit 128).
      assert.equal(result.code, 8, `${args.join(' ')}: ${result.stderr}`)
      assert.equal((JSON.parse(result.stdout) as JsonError).error.code, 'STORE_BUSY')
    }
  }
  {
    // Readers get in; the brief's write of its cursor waits, then is STORE_BUSY, not a crash.
    await using _holder = await lockHolder(project.database, false)
    const result = await runCli(['brief', '--json'], cli)
    assert.equal(result.code, 8, result.stderr)
    assert.equal((JSON.parse(result.stdout) as JsonError).error.code, 'STORE_BUSY')
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace')
  }
})

test('join warns on stderr when the connection line, key and all, came as an argument', async () => {
  await using project = await recallProject()
  const cli = { cwd: project.repo.path, env: project.env }
  const line = 'http://127.0.0.1:9#not-a-project#not-a-key'
  const argv = await runCli(['join', line], cli)
  assert.equal(argv.code, 2, argv.stderr)
  assert.match(argv.stderr, /warning: the connection line holds the project key.*process list.*pipe it in/)
  const piped = await runCli(['join'], { ...cli, input: `${line}\n` })
  assert.equal(piped.code, 2, piped.stderr)
  assert.doesNotMatch(piped.stderr, /warning/)
})
