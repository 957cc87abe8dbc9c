import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { benchRepo } from './helpers/bench-repo.ts'
import { type TimedRun, timedNode } from './helpers/timed-node.ts'
import { percentile } from './helpers/transcript-sentences.ts'

const runs = Number(process.argv[2] ?? 20)
const root = join(import.meta.dirname, '..')
const cli = join(root, 'dist', 'cli', 'main.js')
const hook = join(root, 'dist', 'hooks', 'agent-hook-main.cjs')
const print = (line: string): void => {
  process.stdout.write(`${line}\n`)
}

const { scratch, repo, env, sh } = benchRepo('room-context', { 'README.md': '# bench\n' })

function event(name: string, sessionId: string): string {
  return JSON.stringify({
    session_id: sessionId,
    transcript_path: null,
    cwd: repo,
    hook_event_name: name,
    prompt: 'go',
  })
}

const timed = (args: readonly string[], stdin: string): Promise<TimedRun> =>
  timedNode(args, { cwd: repo, env, stdin, mustSucceed: true })

function summary(name: string, samples: readonly TimedRun[], floor: readonly TimedRun[]): string {
  const q = (values: number[], p: number): number =>
    percentile(
      [...values].sort((a, b) => a - b),
      p,
    )
  const wall = samples.map((s) => s.ms)
  const base = floor.map((s) => s.ms)
  const p50 = q(wall, 50)
  const p95 = q(wall, 95)
  return `${name.padEnd(34)} wall p50 ${p50.toFixed(1).padStart(6)} ms (${(p50 / q(base, 50)).toFixed(2)}×)  p95 ${p95.toFixed(1).padStart(6)} ms (${(p95 / q(base, 95)).toFixed(2)}×)`
}

try {
  sh(process.execPath, [cli, 'init', '--no-mcp'])
  // The session is known to the room (its handle is claude-repo) and has a cursor.
  await timed([hook, 'claude'], event('SessionStart', 'bench-session'))
  for (let i = 0; i < 30; i++) {
    sh(
      process.execPath,
      [cli, 'post', `note ${i}: ${'the projection layer needs another look '.repeat(20)}`],
      {
        SANGAM_USER: 'bob@example.com',
      },
    )
  }
  await timed([hook, 'claude'], event('UserPromptSubmit', 'bench-session'))

  const floor: TimedRun[] = []
  const quiet: TimedRun[] = []
  const one: TimedRun[] = []
  const flood: TimedRun[] = []
  for (let i = 0; i < runs; i++) {
    floor.push(await timed(['-e', '0'], ''))
    quiet.push(await timed([hook, 'claude'], event('UserPromptSubmit', 'bench-session')))
    sh(process.execPath, [cli, 'post', '--to', '@claude-repo', `please rebase (${i})`], {
      SANGAM_USER: 'bob@example.com',
    })
    // Let the post's process go before the clock starts: on two cores it would compete.
    await new Promise((resolve) => setTimeout(resolve, 200))
    const carried = await timed([hook, 'claude'], event('UserPromptSubmit', 'bench-session'))
    if (!carried.stdout.includes(`please rebase (${i})`))
      throw new Error(`the message did not arrive: ${carried.stdout}`)
    one.push(carried)
    const first = await timed([hook, 'claude'], event('UserPromptSubmit', `bench-new-${i}`))
    if (!/more for you not shown here/.test(first.stdout))
      throw new Error(`no "N more" line: ${first.stdout}`)
    flood.push(first)
  }
  print(
    `UserPromptSubmit hook with the room's context, ${runs} runs each, interleaved (Node ${process.version})`,
  )
  print(summary('node -e 0 (floor)', floor, floor))
  print(summary('nothing new', quiet, floor))
  print(summary('one new message', one, floor))
  print(summary('new session, 30 waiting (cap)', flood, floor))
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
